import { z } from 'zod';
import { LOG_LIST_DEFAULT_LIMIT, LOG_LIST_MAX_LIMIT } from './constants.ts';
import { queryInt } from './input.ts';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Unknown or missing levels display as INFO (spec section 9). */
export function displayLevel(level: string | null | undefined): LogLevel {
  const upper = (level ?? '').toUpperCase();
  if (upper === 'WARN') return 'WARNING';
  return (LOG_LEVELS as readonly string[]).includes(upper) ? (upper as LogLevel) : 'INFO';
}

export const logEntry = z.object({
  id: z.string(),
  timestamp: z.string(),
  level: z.string(),
  logger: z.string(),
  message: z.string(),
  exception: z.string().nullable().optional(),
});
export type LogEntry = z.infer<typeof logEntry>;

export const listLogsInput = z
  .object({
    limit: queryInt(
      z
        .number()
        .int('limit must be a whole number')
        .min(1, `limit must be between 1 and ${LOG_LIST_MAX_LIMIT}`)
        .max(LOG_LIST_MAX_LIMIT, `limit must be between 1 and ${LOG_LIST_MAX_LIMIT}`),
      'limit must be a whole number',
    ).default(LOG_LIST_DEFAULT_LIMIT),
    level: z
      .string()
      .trim()
      .toUpperCase()
      .optional()
      .transform((value) => (value ? value : undefined))
      .pipe(z.enum(LOG_LEVELS, { error: `level must be one of ${LOG_LEVELS.join(', ')}` }).optional())
      .describe(`${LOG_LEVELS.join(', ')} in any case; empty for every level`),
    search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  })
  .default({ limit: LOG_LIST_DEFAULT_LIMIT });
export type ListLogsInput = z.infer<typeof listLogsInput>;

/** Search matches message or logger, case-insensitive (spec section 5). */
export function logMatches(entry: Pick<LogEntry, 'message' | 'logger'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return entry.message.toLowerCase().includes(needle) || entry.logger.toLowerCase().includes(needle);
}

/** Counts per display level, for the level chips. */
export function countByLevel(entries: readonly Pick<LogEntry, 'level'>[]): Record<LogLevel, number> {
  const counts: Record<LogLevel, number> = { DEBUG: 0, INFO: 0, WARNING: 0, ERROR: 0, CRITICAL: 0 };
  for (const entry of entries) counts[displayLevel(entry.level)] += 1;
  return counts;
}
