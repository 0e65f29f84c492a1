import { describe, expect, it } from 'vitest';
import {
  cleanPasskey,
  PASSKEY_ALPHABET,
  PASSKEY_INCOMPLETE,
  PASSKEY_LENGTH,
  passkeyFromQuery,
  passkeyInput,
} from './passkey.ts';

describe('cleanPasskey', () => {
  it('keeps letters and digits only, uppercased', () => {
    expect(cleanPasskey('ab12cd')).toBe('AB12CD');
    expect(cleanPasskey(' a-b 1_2.c/d ')).toBe('AB12CD');
    expect(cleanPasskey('ÄB12CD')).toBe('B12CD');
  });

  it('does not cut or pad: the length rule is applied by its callers', () => {
    expect(cleanPasskey('abc')).toBe('ABC');
    expect(cleanPasskey('abcdefgh')).toBe('ABCDEFGH');
    expect(cleanPasskey('')).toBe('');
    expect(cleanPasskey('--- ')).toBe('');
  });
});

describe('passkeyFromQuery', () => {
  it('uses the parameter only when it cleans to exactly 6 characters', () => {
    expect(passkeyFromQuery('abc123')).toBe('ABC123');
    expect(passkeyFromQuery('ab-c1 23')).toBe('ABC123');
    expect(passkeyFromQuery('abc12')).toBeNull();
    expect(passkeyFromQuery('abc1234')).toBeNull();
    expect(passkeyFromQuery('ab!!c1')).toBeNull();
  });

  it('ignores a missing or empty parameter', () => {
    expect(passkeyFromQuery(null)).toBeNull();
    expect(passkeyFromQuery(undefined)).toBeNull();
    expect(passkeyFromQuery('')).toBeNull();
  });
});

describe('passkeyInput', () => {
  it('cleans the passkey before checking it', () => {
    expect(passkeyInput.parse({ passkey: 'ab c1-23' })).toEqual({ passkey: 'ABC123' });
  });

  it.each([{ passkey: 'abc12' }, { passkey: 'abc1234' }, { passkey: '' }, { passkey: 123456 }, {}, null, 'ABC123'])(
    'refuses %j with the spec message',
    (input) => {
      const result = passkeyInput.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([PASSKEY_INCOMPLETE]);
    },
  );

  it('names the 6-character rule', () => {
    expect(PASSKEY_LENGTH).toBe(6);
    expect(PASSKEY_INCOMPLETE).toBe('Please enter a 6-character passkey');
    expect(PASSKEY_ALPHABET).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
  });
});
