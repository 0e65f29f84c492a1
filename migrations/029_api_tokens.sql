-- API tokens (rest-api.md "Tokens and agents", docs/decisions/0044-api-tokens-and-scopes.md): a
-- user's tokens for scripts and AI assistants. The token itself (cs_<lookup>_<secret>) is shown
-- once; the row keeps the lookup part and the SHA-256 of the secret, compared in constant time.
-- A revoked token's row is deleted, so the next request with it finds nothing.
create table api_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  lookup text not null unique,
  secret_hash bytea not null,
  scopes text[] not null,
  created_at timestamptz not null default now(),
  -- null = never expires.
  expires_at timestamptz,
  last_used_at timestamptz,
  constraint api_tokens_scopes_check check (cardinality(scopes) > 0 and scopes <@ array['read', 'write', 'post', 'admin'])
);
create index api_tokens_user_idx on api_tokens (user_id, created_at);
