-- Post statistics over time (issue 14): every reading of a published post's counts, for the
-- per-account chart (views over time). uploads.stats keeps the latest reading; this keeps them all.
create table post_stats_history (
  upload_id uuid not null references uploads (id) on delete cascade,
  fetched_at timestamptz not null,
  views bigint not null,
  likes bigint not null,
  comments bigint not null,
  -- YouTube does not tell shares.
  shares bigint,
  primary key (upload_id, fetched_at)
);

-- When the post went public on its platform: the statistics schedule counts from it (hourly for
-- 7 days, then daily until 30). Posts published before this migration take their last change,
-- which for a published post is when it was published.
alter table uploads add column published_at timestamptz;
update uploads set published_at = updated_at where status = 'published';
