import { displayLevel, LOG_LEVELS, logMatches, type LogEntry, type LogLevel } from '@clipshift/shared';

export const ALL_LEVELS = 'ALL';
export type LevelFilter = LogLevel | typeof ALL_LEVELS;

export const LEVEL_FILTER_OPTIONS: readonly { value: LevelFilter; label: string }[] = [
  { value: ALL_LEVELS, label: 'All Levels' },
  { value: 'DEBUG', label: 'Debug' },
  { value: 'INFO', label: 'Info' },
  { value: 'WARNING', label: 'Warning' },
  { value: 'ERROR', label: 'Error' },
  { value: 'CRITICAL', label: 'Critical' },
];

export function parseLevelFilter(value: string): LevelFilter {
  return (LOG_LEVELS as readonly string[]).includes(value) ? (value as LogLevel) : ALL_LEVELS;
}

interface LogFilters {
  level: LevelFilter;
  search: string;
}

export function isFiltering({ level, search }: LogFilters): boolean {
  return level !== ALL_LEVELS || search.trim() !== '';
}

/** Filtering happens here, on everything loaded, so the level counts stay those of all entries. */
export function filterLogs(entries: readonly LogEntry[], { level, search }: LogFilters): LogEntry[] {
  return entries.filter((entry) => (level === ALL_LEVELS || displayLevel(entry.level) === level) && logMatches(entry, search));
}
