-- Accounts, sessions, invite codes, guest passkeys, system logs and rate-limit counters.

create table users (
  id uuid primary key default gen_random_uuid(),
  username text not null,
  password_hash text not null,
  is_admin boolean not null default false,
  passkey text,
  created_at timestamptz not null default now(),
  constraint users_passkey_shape check (passkey is null or passkey ~ '^[A-Z0-9]{6}$')
);
-- Usernames are unique ignoring case, so "Alice" and "alice" cannot both exist.
create unique index users_username_lower_key on users (lower(username));
create unique index users_passkey_key on users (passkey) where passkey is not null;

-- Only the SHA-256 of the session secret is stored; the id is public, the secret never leaves the cookie.
create table sessions (
  id text primary key,
  secret_hash bytea not null,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_user_id_idx on sessions (user_id);
create index sessions_expires_at_idx on sessions (expires_at);

create table invite_codes (
  id uuid primary key default gen_random_uuid(),
  -- normalised form: 24 uppercase characters, no dashes
  code text not null unique,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_by_user_id uuid references users (id) on delete set null,
  used_at timestamptz,
  constraint invite_codes_code_shape check (code ~ '^[0-9A-Z]{24}$')
);
create index invite_codes_created_at_idx on invite_codes (created_at desc);

create table logs (
  id bigint generated always as identity primary key,
  timestamp timestamptz not null default now(),
  level text not null,
  logger text not null,
  message text not null,
  exception text,
  user_id uuid references users (id) on delete set null,
  constraint logs_level_check check (level in ('DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'))
);
create index logs_timestamp_idx on logs (timestamp desc, id desc);
create index logs_user_timestamp_idx on logs (user_id, timestamp desc, id desc);

-- Fixed-window counters shared by every process on this database (login, register, passkey).
create table rate_limits (
  key text primary key,
  window_started_at timestamptz not null,
  hits integer not null
);
