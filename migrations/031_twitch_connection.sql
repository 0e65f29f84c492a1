-- A Twitch account connected by the user (rest-api.md "Moments", decision 0047): its user access
-- token makes clips (Create Clip, Create Clip From VOD) and fetches clip files through Get Clips
-- Download for the channels it may edit. One connection per user; tokens encrypted with APP_SECRET.
create table twitch_connections (
  user_id uuid primary key references users (id) on delete cascade,
  twitch_user_id text not null,
  login text not null,
  scopes jsonb not null default '[]',
  access_token_enc text not null,
  refresh_token_enc text not null,
  access_expires_at timestamptz not null,
  -- Twitch refused the refresh token: the user must connect again ('Reconnect needed').
  needs_reconnect boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The authorize flow's state: only its SHA-256 is kept; single use, ten minutes, bound to the user.
create table twitch_oauth_states (
  state_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index twitch_oauth_states_expires_idx on twitch_oauth_states (expires_at);

-- The clip's source is the streamer's own portrait version from Get Clips Download, used as it is.
alter table clips add column portrait_source boolean not null default false;

-- Only Twitch's featured clips (Helix Get Clips `is_featured`).
alter table streamers add column featured_only boolean not null default false;
