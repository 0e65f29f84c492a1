import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isUuid, queryInt, rowId } from './input.ts';

describe('isUuid', () => {
  it('accepts UUIDs in either case', () => {
    expect(isUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')).toBe(true);
    expect(isUuid('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')).toBe(true);
  });
  it.each(['------------------------------------', 'a'.repeat(36), 'a0eebc999c0b4ef8bb6d6bb9bd380a11', 'g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ' a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ''])(
    'refuses %j',
    (value) => {
      expect(isUuid(value)).toBe(false);
    },
  );
});

describe('rowId', () => {
  const schema = rowId('account id is required');
  it('keeps a UUID, trimmed and lowercased', () => {
    expect(schema.parse(' A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11 ')).toBe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
  });
  it('turns text that cannot be a UUID into null (it names no row)', () => {
    expect(schema.parse('------------------------------------')).toBeNull();
    expect(schema.parse('a'.repeat(36))).toBeNull();
  });
  it('refuses what is not text, or is blank, with the message', () => {
    for (const value of [42, null, ['x'], '', '  ']) {
      expect(schema.safeParse(value).error?.issues[0]?.message).toBe('account id is required');
    }
  });
});

describe('queryInt', () => {
  const RULE = 'n must be a whole number from 1 to 100';
  const schema = queryInt(z.number().int(RULE).min(1, RULE).max(100, RULE), RULE);
  it('reads digit strings and JSON numbers', () => {
    expect(schema.parse('7')).toBe(7);
    expect(schema.parse('007')).toBe(7);
    expect(schema.parse(7)).toBe(7);
  });
  it.each(['2.5', '-1', '1e3', ' 2', '2 ', '+2', '0x10', '', ['2'], ['1', '2'], true, null, 2.5, 0, '101'])('refuses %j with the rule', (value) => {
    expect(schema.safeParse(value).error?.issues[0]?.message).toBe(RULE);
  });
});
