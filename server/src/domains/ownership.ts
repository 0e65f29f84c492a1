import type { Database } from '../platform/db/schema.ts';

type Table = keyof Database;

/**
 * Who owns each table: the one domain (or ring) whose code reads and writes it. Every other unit
 * reaches that data through the owner's service.ts. Declared once here; the architecture check
 * (scripts/arch-checks.mjs `tableCrossings`, run by tests/integration/architecture-checks.test.ts)
 * scans every Kysely call and sql`` template under server/src and fails on a crossing, and
 * docs/decisions/0013-server-rings.md's table of owners is checked against this map.
 * A domain that owns no table has an empty list, so that a new domain must be placed here.
 */
export const TABLE_OWNERS = {
  auth: ['users', 'sessions', 'login_account_locks'],
  clips: ['clips'],
  descriptions: [],
  downloads: ['download_runs'],
  guests: [],
  invites: ['invite_codes'],
  logs: ['logs'],
  moments: ['moments', 'live_watches'],
  notifications: ['webhooks', 'webhook_deliveries'],
  publishing: ['accounts', 'streamer_accounts', 'oauth_states', 'uploads', 'posting_schedules', 'account_post_settings', 'post_stats_history', 'youtube_quota_days'],
  review: ['approval_links'],
  settings: ['user_settings'],
  streamers: ['streamers'],
  studio: [],
  subtitles: ['subtitle_requests'],
  tokens: ['api_tokens'],
  twitch: ['twitch_connections', 'twitch_oauth_states'],
  // Rings below or beside the domains that keep state of their own.
  platform: ['rate_limits'],
  jobs: ['app_instances'],
} as const satisfies Record<string, readonly Table[]>;

type Owned = (typeof TABLE_OWNERS)[keyof typeof TABLE_OWNERS][number];
/** Fails to compile while a table of the schema has no owner. */
const everyTableOwned: Exclude<Table, Owned> extends never ? true : Exclude<Table, Owned> = true;
void everyTableOwned;
