import { sql } from 'kysely';
import { LOG_RETENTION_DAYS, LOG_RETENTION_ROWS, type ListLogsInput, type LogEntry, type LogLevel } from '@clipshift/shared';
import type { DbOrTrx } from '../db/database.ts';
import type { Logger } from './logger.ts';
import { redactUrl } from './logger.ts';

export interface LogEvent {
  level: LogLevel;
  /** The part of the app that speaks, e.g. "auth", "downloads". */
  logger: string;
  message: string;
  /** The user the event concerns; null for system-wide events (visible to administrators). */
  userId?: string | null;
  error?: unknown;
}

const PINO_LEVEL: Record<LogLevel, 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  CRITICAL: 'fatal',
};

function describeError(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  if (error instanceof Error) return redactUrl(error.stack ?? `${error.name}: ${error.message}`);
  return redactUrl(String(error));
}

/**
 * Writes an event users care about to stdout and to the logs table. Never throws: a failure to
 * store a log line must not fail the work it describes.
 */
export async function recordLog(db: DbOrTrx, logger: Logger, event: LogEvent): Promise<void> {
  const message = redactUrl(event.message);
  const exception = describeError(event.error);
  logger[PINO_LEVEL[event.level]](
    { logger: event.logger, userId: event.userId ?? undefined, err: event.error instanceof Error ? event.error : undefined },
    message,
  );
  try {
    await db
      .insertInto('logs')
      .values({ level: event.level, logger: event.logger, message, exception, user_id: event.userId ?? null })
      .execute();
  } catch (error) {
    logger.error({ err: error }, 'could not store a log entry');
  }
}

export interface LogViewer {
  id: string;
  is_admin: boolean;
}

/** Newest first; a user sees entries about their own work, an administrator all of them. */
export async function listLogs(db: DbOrTrx, viewer: LogViewer, input: ListLogsInput): Promise<LogEntry[]> {
  let query = db
    .selectFrom('logs')
    .select(['id', 'timestamp', 'level', 'logger', 'message', 'exception'])
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit);
  if (!viewer.is_admin) query = query.where('user_id', '=', viewer.id);
  if (input.level) query = query.where('level', '=', input.level);
  if (input.search) {
    const pattern = `%${input.search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where((eb) => eb.or([eb('message', 'ilike', pattern), eb('logger', 'ilike', pattern)]));
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    id: String(row.id),
    timestamp: row.timestamp.toISOString(),
    level: row.level,
    logger: row.logger,
    message: row.message,
    exception: row.exception,
  }));
}

/** Keeps the newest 30 days or 100,000 rows, whichever is less. Returns how many rows went. */
export async function trimLogs(
  db: DbOrTrx,
  limits: { days: number; rows: number } = { days: LOG_RETENTION_DAYS, rows: LOG_RETENTION_ROWS },
): Promise<number> {
  const byAge = await db
    .deleteFrom('logs')
    .where('timestamp', '<', sql<Date>`now() - make_interval(days => ${limits.days})`)
    .executeTakeFirst();
  // The cutoff is the newest row beyond the limit; it and everything older go. The comparison runs
  // in SQL: timestamps have microseconds, which a JavaScript Date would round away (keeping the
  // cutoff row and its neighbours of the same millisecond).
  const byCount = await db
    .deleteFrom('logs')
    .where(
      sql<boolean>`(timestamp, id) <= (
        select l.timestamp, l.id from logs as l order by l.timestamp desc, l.id desc offset ${limits.rows} limit 1
      )`,
    )
    .executeTakeFirst();
  return Number(byAge.numDeletedRows + byCount.numDeletedRows);
}
