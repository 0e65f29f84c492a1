import { describe, expect, it } from 'vitest';
import type { LogEntry } from '@clipshift/shared';
import { ALL_LEVELS, filterLogs, isFiltering, LEVEL_FILTER_OPTIONS, parseLevelFilter } from './log-filters';

const entry = (id: string, level: string, logger: string, message: string): LogEntry => ({ id, level, logger, message, timestamp: '2026-01-01T00:00:00Z', exception: null }) as LogEntry;

const ENTRIES = [
  entry('1', 'INFO', 'auth', 'alice signed in'),
  entry('2', 'WARNING', 'auth', 'Failed sign-in attempt for alice'),
  entry('3', 'ERROR', 'worker', 'Rendering clip Abc123 failed'),
  entry('4', 'TRACE', 'worker', 'an unknown level'),
];

describe('the log filters', () => {
  it('offer All Levels and the five levels', () => {
    expect(LEVEL_FILTER_OPTIONS.map((option) => option.label)).toEqual(['All Levels', 'Debug', 'Info', 'Warning', 'Error', 'Critical']);
    expect(parseLevelFilter('ERROR')).toBe('ERROR');
    expect(parseLevelFilter('nonsense')).toBe(ALL_LEVELS);
  });

  it('filter by level (unknown levels count as INFO) and by words in message or logger, case-insensitively', () => {
    expect(filterLogs(ENTRIES, { level: ALL_LEVELS, search: '' })).toHaveLength(4);
    expect(filterLogs(ENTRIES, { level: 'INFO', search: '' }).map((log) => log.id)).toEqual(['1', '4']);
    expect(filterLogs(ENTRIES, { level: ALL_LEVELS, search: 'SIGNED IN' }).map((log) => log.id)).toEqual(['1']);
    expect(filterLogs(ENTRIES, { level: ALL_LEVELS, search: 'worker' }).map((log) => log.id)).toEqual(['3', '4']);
    expect(filterLogs(ENTRIES, { level: 'WARNING', search: 'worker' })).toEqual([]);
  });

  it('know when they filter', () => {
    expect(isFiltering({ level: ALL_LEVELS, search: '  ' })).toBe(false);
    expect(isFiltering({ level: 'DEBUG', search: '' })).toBe(true);
    expect(isFiltering({ level: ALL_LEVELS, search: 'x' })).toBe(true);
  });
});
