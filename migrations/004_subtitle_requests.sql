-- Subtitle generation requests: one at a time per clip, waited on by the HTTP call that made it.
create table subtitle_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  clip_row_id uuid not null references clips (id) on delete cascade,
  model text,
  status text not null default 'queued',
  message text,
  owner_host text,
  owner_pid integer,
  owner_instance text,
  heartbeat_at timestamptz,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  constraint subtitle_requests_status_check check (status in ('queued', 'running', 'done', 'no_speech', 'failed'))
);
create unique index subtitle_requests_one_active_key on subtitle_requests (clip_row_id) where status in ('queued', 'running');
