-- YouTube Shorts as a second destination (issue 14): accounts and posts of every platform.
-- tiktok_accounts keeps its name (and uploads.tiktok_account_id theirs): the API's own fields are
-- still called tiktok_account_id(s) and accept any platform's account id (rest-api.md, "YouTube
-- Shorts"), so one id space serves streamer links, posts and the Connected accounts table.
alter table tiktok_accounts add column platform text not null default 'tiktok';
alter table tiktok_accounts add constraint tiktok_accounts_platform_check check (platform in ('tiktok', 'youtube'));
-- open_id is the platform's own id of the account (TikTok open_id, YouTube channel id).
drop index tiktok_accounts_user_open_id_key;
create unique index accounts_user_platform_external_key on tiktok_accounts (user_id, platform, open_id);

alter table uploads add column platform text not null default 'tiktok';
alter table uploads add constraint uploads_platform_check check (platform in ('tiktok', 'youtube'));
-- TikTok's public post id or the YouTube video id, once known.
alter table uploads add column external_id text;
-- The YouTube title (TikTok has none besides the description).
alter table uploads add column title text;
-- The post's latest statistics {views, likes, comments, shares} and when they were read; the next
-- refresh is due at stats_due_at (hourly for 7 days after publishing, then daily for 30).
alter table uploads add column stats jsonb;
alter table uploads add column stats_fetched_at timestamptz;
alter table uploads add column stats_due_at timestamptz;
create index uploads_stats_due_idx on uploads (stats_due_at) where stats_due_at is not null;
-- At most once per clip and account of a platform, whichever row of ours the account has now.
drop index uploads_clip_open_id_key;
create unique index uploads_clip_platform_account_key on uploads (clip_row_id, platform, account_open_id);
