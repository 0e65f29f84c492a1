import {
  LOG_RETENTION_DAYS,
  LOG_RETENTION_ROWS_PER_USER,
  LOG_RETENTION_SYSTEM_ROWS,
  type ListLogsInput,
  type LogEntry,
  type LogLevel,
} from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { countAttempt } from '../../platform/rate-limit.ts';
import type { Logger } from '../../platform/logger.ts';
import { redactUrl } from '../../platform/logger.ts';
import { deleteLogsBeyond, insertLog, selectLogs, type LogRetention } from './queries.ts';

/**
 * How many rows of one kind may be stored per window. Past `max`, one more row says that the rest
 * are not stored; stdout still gets every event.
 */
export interface LogBudget {
  key: string;
  max: number;
  windowSeconds: number;
  /** What is counted, for that row: "entries caused by requests without a session". */
  label: string;
}

/**
 * What requests without a session (failed sign-ins, guest passkeys, OAuth callbacks) may add to one
 * user's log, or to the system rows: 11 rows an hour are at most 7,920 in the 30 days kept, far
 * below LOG_RETENTION_ROWS_PER_USER, so nobody can push a user's own entries out of their log.
 */
export const ANONYMOUS_LOG_LIMIT = { max: 10, windowSeconds: 60 * 60 };

export function anonymousLogBudget(userId: string | null): LogBudget {
  return { key: `anonymous:${userId ?? 'system'}`, ...ANONYMOUS_LOG_LIMIT, label: 'entries caused by requests without a session' };
}

/** Unexpected server errors: an outage failing every request stores a sample, not one row per request. */
export const FAULT_LOG_BUDGET: LogBudget = { key: 'faults', max: 60, windowSeconds: 10 * 60, label: 'unexpected server errors' };

interface LogEvent {
  level: LogLevel;
  /** The part of the app that speaks, e.g. "auth", "downloads". */
  logger: string;
  message: string;
  /** The user the event concerns; null for system-wide events (visible to administrators). */
  userId?: string | null;
  error?: unknown;
  /** Bounds how many such rows are stored (stdout gets them all). */
  budget?: LogBudget;
}

const PINO_LEVEL: Record<LogLevel, 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  CRITICAL: 'fatal',
};

/**
 * An error as stdout gets it: its message, stack and `detail` (what a provider client keeps for the
 * operator: the address it called, the start of the answer) with secret query parameters redacted.
 */
function redactedError(error: unknown): Error | undefined {
  if (!(error instanceof Error)) return undefined;
  const copy = Object.assign(new Error(redactUrl(error.message)), { name: error.name, stack: error.stack && redactUrl(error.stack) });
  const { code, detail } = error as { code?: unknown; detail?: unknown };
  if (typeof detail === 'string') Object.assign(copy, { detail: redactUrl(detail) });
  return typeof code === 'string' ? Object.assign(copy, { code }) : copy;
}

function describeError(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  if (error instanceof Error) return redactUrl(error.stack ?? `${error.name}: ${error.message}`);
  return redactUrl(String(error));
}

/** The row to store for an event under its budget: itself, the note that the rest are not stored, or nothing. */
async function budgetedRow(db: DbOrTrx, budget: LogBudget, row: { message: string; exception: string | null }) {
  const { hits: count } = await countAttempt(db, `log:${budget.key}`, budget);
  if (count <= budget.max) return row;
  if (count > budget.max + 1) return null;
  const minutes = Math.round(budget.windowSeconds / 60);
  return {
    message: `More than ${budget.max} ${budget.label} within ${minutes} minutes: further ones are not stored in this log until that window ends (the server output has them all)`,
    exception: null,
  };
}

/**
 * Writes an event users care about to stdout and to the logs table. Never throws: a failure to
 * store a log line must not fail the work it describes. A row about a user's work stores no
 * exception: its message says why in plain words (platform/public-reason.ts), and the stack, with
 * this machine's paths, goes to stdout only. System rows, which only administrators read, keep it.
 */
export async function recordLog(db: DbOrTrx, logger: Logger, event: LogEvent): Promise<void> {
  const message = redactUrl(event.message);
  const exception = event.userId ? null : describeError(event.error);
  logger[PINO_LEVEL[event.level]](
    { logger: event.logger, userId: event.userId ?? undefined, err: redactedError(event.error) },
    message,
  );
  try {
    const row = event.budget ? await budgetedRow(db, event.budget, { message, exception }) : { message, exception };
    if (!row) return;
    await insertLog(db, { level: event.level, logger: event.logger, ...row, user_id: event.userId ?? null });
  } catch (error) {
    logger.error({ err: error }, 'could not store a log entry');
  }
}

interface LogViewer {
  id: string;
  is_admin: boolean;
}

/** Newest first; a user sees entries about their own work, an administrator all of them. */
export async function listLogs(db: DbOrTrx, viewer: LogViewer, input: ListLogsInput): Promise<LogEntry[]> {
  const rows = await selectLogs(db, { userId: viewer.is_admin ? null : viewer.id, level: input.level, search: input.search, limit: input.limit });
  return rows.map((row) => ({
    id: String(row.id),
    timestamp: row.timestamp.toISOString(),
    level: row.level,
    logger: row.logger,
    message: row.message,
    exception: row.exception,
  }));
}

export type { LogRetention };

/** Keeps 30 days, and of those each user's newest rows and the newest system rows up to their caps. Returns how many rows went. */
export function trimLogs(
  db: DbOrTrx,
  limits: LogRetention = { days: LOG_RETENTION_DAYS, rowsPerUser: LOG_RETENTION_ROWS_PER_USER, systemRows: LOG_RETENTION_SYSTEM_ROWS },
): Promise<number> {
  return deleteLogsBeyond(db, limits);
}
