-- Notifications (issue 12): a user's webhooks and one row per event delivered to one webhook.

create table webhooks (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  url text not null,
  kind text not null,
  events text[] not null,
  -- json webhooks' HMAC key, AES-256-GCM like the TikTok tokens ("v1:<iv>:<tag>:<data>"); null for discord and slack.
  secret_enc text,
  created_at timestamptz not null default now(),
  last_status integer,
  last_error text,
  last_delivery_at timestamptz,
  constraint webhooks_kind_check check (kind in ('discord', 'slack', 'json')),
  constraint webhooks_events_check check (cardinality(events) > 0)
);
create index webhooks_user_idx on webhooks (user_id, created_at);

create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null references webhooks (id) on delete cascade,
  event text not null,
  -- {event, created_at, data}: the same body is sent on every try.
  payload jsonb not null,
  status text not null default 'pending',
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz not null default now(),
  delivered_at timestamptz,
  constraint webhook_deliveries_status_check check (status in ('pending', 'delivered', 'failed'))
);
create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, created_at);
