-- Streamers, their download runs, and the clip library.

create table streamers (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  display_name text,
  twitch_user_id text,
  clip_limit integer not null default 10,
  vertical boolean not null default true,
  language text not null default '',
  layout text not null default 'blur',
  schedule_interval integer,
  schedule_unit text,
  auto_subtitle boolean not null default false,
  auto_publish boolean not null default false,
  next_run_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint streamers_clip_limit_range check (clip_limit between 1 and 100),
  constraint streamers_layout_check check (layout in ('blur', 'crop')),
  constraint streamers_schedule_shape check (
    (schedule_interval is null and schedule_unit is null and next_run_at is null)
    or (schedule_interval >= 1 and schedule_unit in ('minutes', 'hours', 'days'))
  )
);
-- One streamer name per user, ignoring case.
create unique index streamers_user_name_key on streamers (user_id, lower(name));

create table download_runs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  streamer_id uuid not null references streamers (id) on delete cascade,
  status text not null default 'downloading',
  trigger text not null default 'manual',
  clip_limit integer not null,
  vertical boolean not null,
  concurrency integer not null default 5,
  clips_total integer not null default 0,
  clips_downloaded integer not null default 0,
  clips_failed integer not null default 0,
  progress jsonb not null default '[]',
  error text,
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  -- Which process runs it, and when it last said so: how a crashed run is told from a live one.
  owner_host text,
  owner_pid integer,
  owner_instance text,
  heartbeat_at timestamptz,
  constraint download_runs_status_check check (status in ('downloading', 'stopping', 'completed', 'stopped', 'error')),
  constraint download_runs_trigger_check check (trigger in ('manual', 'schedule'))
);
-- At most one busy run per streamer, whatever races between processes.
create unique index download_runs_one_active_key on download_runs (streamer_id) where status in ('downloading', 'stopping');
create index download_runs_streamer_started_idx on download_runs (streamer_id, started_at desc);
create index download_runs_active_idx on download_runs (status) where status in ('downloading', 'stopping');

create table clips (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  -- The library keeps clips of deleted streamers.
  streamer_id uuid references streamers (id) on delete set null,
  streamer_name text not null,
  clip_id text not null,
  title text not null,
  broadcaster_id text,
  broadcaster_name text not null,
  creator_name text,
  game_id text,
  game_name text,
  language text,
  view_count integer not null default 0,
  duration real not null default 0,
  twitch_created_at timestamptz not null,
  thumbnail_url text,
  url text,
  format_type text not null,
  layout text,
  subtitled boolean not null default false,
  width integer,
  height integer,
  size_bytes bigint,
  files_dir text not null,
  custom_description text,
  selected_description integer not null default -1,
  descriptions jsonb not null default '[]',
  transcript text,
  run_id uuid references download_runs (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint clips_format_check check (format_type in ('vertical', 'horizontal'))
);
-- A clip exists once per user's library.
create unique index clips_user_clip_key on clips (user_id, clip_id);
create index clips_user_created_idx on clips (user_id, twitch_created_at desc, id desc);
create index clips_streamer_idx on clips (user_id, lower(streamer_name));
