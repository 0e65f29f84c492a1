-- Posting slots (issue 12): a weekly grid of times per TikTok account, a daily cap and a minimum
-- gap; uploads wait for their slot in status 'scheduled' and can be canceled before they start.

create table posting_schedules (
  account_id uuid primary key references tiktok_accounts (id) on delete cascade,
  -- An IANA zone name (checked by the server with Intl: PostgreSQL's zone list may differ from Node's).
  timezone text not null,
  -- [{day: 0..6 (0 = Sunday), time: 'HH:MM'}], sorted and without repeats.
  slots jsonb not null default '[]',
  daily_cap integer,
  min_gap_minutes integer not null default 0,
  updated_at timestamptz not null default now(),
  constraint posting_schedules_slots_array check (jsonb_typeof(slots) = 'array' and jsonb_array_length(slots) <= 200),
  constraint posting_schedules_daily_cap_range check (daily_cap is null or daily_cap between 1 and 100),
  constraint posting_schedules_min_gap_range check (min_gap_minutes between 0 and 1440)
);

-- When the post goes (or went) to TikTok: its slot, or the moment it was queued for an immediate post.
-- Null only for uploads made before this migration. Daily caps and gaps count these times.
alter table uploads add column scheduled_for timestamptz;
-- 'now': the user asked for this post and waits for TikTok's answer (a refusal fails it, in words);
-- 'next-slot': automatic or approved, nobody waits (a rate refusal moves it to the next free slot).
alter table uploads add column timing text not null default 'now';
alter table uploads add constraint uploads_timing_check check (timing in ('now', 'next-slot'));
alter table uploads drop constraint uploads_status_check;
alter table uploads add constraint uploads_status_check
  check (status in ('scheduled', 'queued', 'uploading', 'processing', 'sent_to_inbox', 'published', 'failed', 'canceled'));
create index uploads_account_scheduled_idx on uploads (account_open_id, scheduled_for);
create index uploads_user_unfinished_idx on uploads (user_id, scheduled_for) where status in ('scheduled', 'queued', 'uploading', 'processing');
