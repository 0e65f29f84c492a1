import { describe, expect, it } from 'vitest';
import { countByLevel, displayLevel, listLogsInput, LOG_LEVELS, logMatches } from './logs.ts';

describe('displayLevel', () => {
  it('keeps the five known levels, in any case', () => {
    for (const level of LOG_LEVELS) {
      expect(displayLevel(level)).toBe(level);
      expect(displayLevel(level.toLowerCase())).toBe(level);
    }
  });

  it('reads WARN as WARNING', () => {
    expect(displayLevel('WARN')).toBe('WARNING');
    expect(displayLevel('warn')).toBe('WARNING');
  });

  it('shows unknown or missing levels as INFO', () => {
    expect(displayLevel('TRACE')).toBe('INFO');
    expect(displayLevel('FATAL')).toBe('INFO');
    expect(displayLevel('')).toBe('INFO');
    expect(displayLevel(null)).toBe('INFO');
    expect(displayLevel(undefined)).toBe('INFO');
  });
});

describe('logMatches', () => {
  const entry = { message: 'Downloaded 3 clips for Shroud', logger: 'downloads.Worker' };

  it('matches the message, case-insensitively', () => {
    expect(logMatches(entry, 'shroud')).toBe(true);
    expect(logMatches(entry, 'DOWNLOADED 3')).toBe(true);
  });

  it('matches the logger, case-insensitively', () => {
    expect(logMatches(entry, 'worker')).toBe(true);
    expect(logMatches(entry, 'DOWNLOADS.')).toBe(true);
  });

  it('refuses text found in neither', () => {
    expect(logMatches(entry, 'tiktok')).toBe(false);
    expect(logMatches(entry, 'clips for shroudx')).toBe(false);
  });

  it('treats a blank search as matching everything and trims the search', () => {
    expect(logMatches(entry, '')).toBe(true);
    expect(logMatches(entry, '   ')).toBe(true);
    expect(logMatches(entry, '  shroud  ')).toBe(true);
  });
});

describe('countByLevel', () => {
  it('counts by display level, folding unknown levels into INFO and WARN into WARNING', () => {
    const counts = countByLevel([
      { level: 'INFO' },
      { level: 'info' },
      { level: 'TRACE' },
      { level: 'WARN' },
      { level: 'WARNING' },
      { level: 'ERROR' },
      { level: 'CRITICAL' },
    ]);
    expect(counts).toEqual({ DEBUG: 0, INFO: 3, WARNING: 2, ERROR: 1, CRITICAL: 1 });
  });

  it('gives every level a zero count for no entries', () => {
    expect(countByLevel([])).toEqual({ DEBUG: 0, INFO: 0, WARNING: 0, ERROR: 0, CRITICAL: 0 });
  });
});

describe('listLogsInput', () => {
  it('defaults the limit to 500', () => {
    expect(listLogsInput.parse(undefined)).toEqual({ limit: 500 });
    expect(listLogsInput.parse({})).toEqual({ limit: 500 });
  });

  it('reads digits from the query string, uppercases the level and drops an empty level', () => {
    expect(listLogsInput.parse({ limit: '20', level: 'warning', search: '  clip ' })).toEqual({
      limit: 20,
      level: 'WARNING',
      search: 'clip',
    });
    expect(listLogsInput.parse({ level: '' })).toEqual({ limit: 500 });
  });

  it.each([
    [{ limit: 0 }, 'limit must be between 1 and 1000'],
    [{ limit: 1001 }, 'limit must be between 1 and 1000'],
    [{ limit: 2.5 }, 'limit must be a whole number'],
    [{ limit: 'many' }, 'limit must be a whole number'],
    [{ limit: '2.5' }, 'limit must be a whole number'],
    [{ limit: ['20'] }, 'limit must be a whole number'],
    [{ level: 'verbose' }, 'level must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL'],
    [{ search: 'x'.repeat(201) }, 'search must be at most 200 characters'],
  ])('refuses %j', (input, message) => {
    const result = listLogsInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});
