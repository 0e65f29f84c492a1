-- YouTube's rules since issue 14 (issue 21):
-- * youtube_quota_days counts what a Google project (YOUTUBE_CLIENT_ID) spent of its daily quota on
--   one Pacific day: uploads (videos.insert has its own bucket of calls) and units (every other
--   call). Several workers share a project, so the count lives here, one row per project and day,
--   raised by the same statement that checks the limit.
-- * uploads.warning: something the platform did that the user did not ask for although the post
--   went out (YouTube keeping a video private for an unaudited Google project).
-- * youtube_notify_subscribers: YouTube's notifySubscribers, per post and as an account's choice
--   for its approved and automatic posts.
create table youtube_quota_days (
  project text not null,
  day date not null,
  uploads integer not null default 0 check (uploads >= 0),
  units integer not null default 0 check (units >= 0),
  primary key (project, day)
);

alter table uploads
  add column warning text,
  add column youtube_notify_subscribers boolean not null default false;

alter table account_post_settings
  add column youtube_notify_subscribers boolean not null default false;
