import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Timestamps come back from pg as Date; inserts may pass Date or ISO strings. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<string>;
  username: string;
  password_hash: string;
  is_admin: Generated<boolean>;
  passkey: string | null;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  secret_hash: Buffer;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface InviteCodesTable {
  id: Generated<string>;
  code: string;
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_by_user_id: string | null;
  used_at: Timestamp | null;
}

export interface LogsTable {
  /** bigint identity: pg returns it as a string. */
  id: ColumnType<string, never, never>;
  timestamp: ColumnType<Date, Date | string | undefined, never>;
  level: string;
  logger: string;
  message: string;
  exception: string | null;
  user_id: string | null;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

/** Every table of the app: the one declaration of database types. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  invite_codes: InviteCodesTable;
  logs: LogsTable;
  rate_limits: RateLimitsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewLog = Insertable<LogsTable>;
