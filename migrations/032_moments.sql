-- Moments (rest-api.md, "Moments"): a streamer's live chat is read while it streams, bursts are
-- scored against the stream's own baseline, and strong ones become Twitch clips.
alter table streamers add column watch_live boolean not null default false;
alter table streamers add column moment_threshold real not null default 0.6
  check (moment_threshold >= 0 and moment_threshold <= 1);

-- The live state of each watched streamer (Helix, at most once a minute across all workers) and
-- the one process reading its chat: a lease that the reader renews, free again when it lapses.
create table live_watches (
  streamer_id uuid primary key references streamers (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  checked_at timestamptz,
  live boolean not null default false,
  broadcaster_id text,
  login text,
  stream_id text,
  stream_started_at timestamptz,
  stream_title text,
  reader_instance text,
  reader_until timestamptz
);
create index live_watches_due_idx on live_watches (checked_at nulls first);

create table moments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  streamer_id uuid not null references streamers (id) on delete cascade,
  streamer_name text not null,
  broadcaster_id text not null,
  stream_id text not null,
  stream_started_at timestamptz not null,
  -- Seconds from the stream's start to where the moment begins.
  stream_offset integer not null check (stream_offset >= 0),
  detected_at timestamptz not null default now(),
  score real not null check (score >= 0 and score <= 1),
  reasons jsonb not null,
  status text not null default 'found' check (status in ('found', 'clipped', 'skipped', 'failed')),
  error text,
  clip_id text,
  updated_at timestamptz not null default now()
);
-- A stream's burst is one moment, whichever reader saw it.
create unique index moments_stream_offset_key on moments (streamer_id, stream_id, stream_offset);
create index moments_user_detected_idx on moments (user_id, detected_at desc, id desc);

-- The clip made of a moment carries its score and reasons (the Clip's `moment`).
alter table clips add column moment jsonb;

-- A run for the clips a moment made, rather than for the streamer's best.
alter table download_runs drop constraint download_runs_trigger_check;
alter table download_runs add constraint download_runs_trigger_check check (trigger in ('manual', 'schedule', 'moment'));
alter table download_runs add column clip_ids jsonb;
alter table download_runs add column moment jsonb;
