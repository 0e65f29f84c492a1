-- Approval links (rest-api.md "Tokens and agents"; docs/decisions/0046-approval-links.md): a clip
-- waiting for review shared with someone without an account (the streamer), who approves or rejects
-- it once, within 7 days. Only a SHA-256 of the link's random token is kept: the link itself is
-- shown to its owner once and stored nowhere.
create table approval_links (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  clip_row_id uuid not null references clips (id) on delete cascade,
  token_hash bytea not null unique,
  -- The owner's choices when sharing (description, accounts, platform options): what an approval
  -- through the link posts, and what its page shows.
  approval jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- A newer link for the same clip replaced this one.
  revoked_at timestamptz,
  answer text check (answer in ('approved', 'rejected')),
  answered_at timestamptz,
  -- What the person who rejected it wrote (optional, at most 500 characters).
  note text,
  constraint approval_links_answered_check check ((answer is null) = (answered_at is null))
);
create index approval_links_clip_idx on approval_links (clip_row_id);
-- The inbox lists a user's recent links, newest first.
create index approval_links_user_idx on approval_links (user_id, created_at desc);
