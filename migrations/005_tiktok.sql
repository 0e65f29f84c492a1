-- TikTok accounts (tokens encrypted at rest), their links to streamers, OAuth states and uploads.

create table tiktok_accounts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  open_id text not null,
  union_id text,
  display_name text not null,
  username text,
  avatar_url text,
  -- AES-256-GCM ciphertexts ("v1:<iv>:<tag>:<data>", base64url); never plaintext.
  access_token_enc text not null,
  refresh_token_enc text not null,
  access_expires_at timestamptz not null,
  refresh_expires_at timestamptz,
  scope text not null default '',
  needs_reconnect boolean not null default false,
  connected_via text not null default 'owner',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint tiktok_accounts_via_check check (connected_via in ('owner', 'guest'))
);
-- Connecting the same TikTok account again updates it.
create unique index tiktok_accounts_user_open_id_key on tiktok_accounts (user_id, open_id);

create table streamer_tiktok_accounts (
  streamer_id uuid not null references streamers (id) on delete cascade,
  tiktok_account_id uuid not null references tiktok_accounts (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (streamer_id, tiktok_account_id)
);
create index streamer_tiktok_accounts_account_idx on streamer_tiktok_accounts (tiktok_account_id);

-- Only the SHA-256 of the state travels back to us; single use, ten minutes.
create table oauth_states (
  state_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  via text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  constraint oauth_states_via_check check (via in ('owner', 'guest'))
);

create table uploads (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  clip_row_id uuid not null references clips (id) on delete cascade,
  tiktok_account_id uuid not null references tiktok_accounts (id) on delete cascade,
  status text not null default 'queued',
  mode text not null,
  description text not null,
  privacy_level text,
  disable_comment boolean not null default false,
  disable_duet boolean not null default false,
  disable_stitch boolean not null default false,
  publish_id text,
  upload_url_enc text,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint uploads_status_check check (status in ('queued', 'uploading', 'processing', 'sent_to_inbox', 'published', 'failed')),
  constraint uploads_mode_check check (mode in ('direct', 'inbox'))
);
-- At most once: one upload per clip and account, whatever retries or double clicks do.
create unique index uploads_clip_account_key on uploads (clip_row_id, tiktok_account_id);
create index uploads_user_idx on uploads (user_id, created_at desc);
