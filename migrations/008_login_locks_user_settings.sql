-- Per-account sign-in throttling and per-user processing preferences.

-- Failed sign-ins per account and the lock they lead to. The key is an HMAC of the lowercased
-- username (server/src/auth/device-cookie.ts), so a name nobody has is throttled exactly like a
-- real account (the answer never tells which exists) and no typed name is ever stored.
create table login_account_locks (
  account_key text primary key,
  -- attempts of the current window not known to have succeeded (counted before the password check)
  failures integer not null default 0,
  window_started_at timestamptz not null default now(),
  locked_until timestamptz,
  -- consecutive lockouts: each doubles the cooling-off period, up to a cap
  lockouts integer not null default 0,
  updated_at timestamptz not null default now()
);
create index login_account_locks_updated_at_idx on login_account_locks (updated_at);

-- What the Settings screen's Processing form stores on the server, so that jobs started without a
-- browser (schedules, auto-subtitles, auto-publishing runs) use the user's choice.
create table user_settings (
  user_id uuid primary key references users (id) on delete cascade,
  whisper_model text not null,
  concurrency integer not null,
  updated_at timestamptz not null default now(),
  constraint user_settings_concurrency_check check (concurrency between 1 and 20),
  constraint user_settings_whisper_model_check check (whisper_model ~ '^[A-Za-z0-9._-]{1,64}$')
);
