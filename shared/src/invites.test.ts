import { describe, expect, it } from 'vitest';
import { INVITE_DAYS_DEFAULT, INVITE_LIST_LIMIT } from './constants.ts';
import {
  formatInviteCode,
  generateInviteInput,
  INVITE_ALPHABET,
  INVITE_CODE_LENGTH,
  inviteDisplayStatus,
  listInvitesInput,
  normalizeInviteCode,
} from './invites.ts';

describe('invite code alphabet', () => {
  it('has 32 distinct symbols and none of I, L, O, U', () => {
    expect(INVITE_ALPHABET).toHaveLength(32);
    expect(new Set(INVITE_ALPHABET).size).toBe(32);
    for (const letter of 'ILOU') expect(INVITE_ALPHABET).not.toContain(letter);
    expect(INVITE_CODE_LENGTH).toBe(24);
  });
});

describe('normalizeInviteCode', () => {
  it('removes dashes and whitespace and uppercases', () => {
    expect(normalizeInviteCode('abcd-efgh-jkmn-pqrs-tvwx-yz01')).toBe('ABCDEFGHJKMNPQRSTVWXYZ01');
    expect(normalizeInviteCode(' ab cd\tef-gh ')).toBe('ABCDEFGH');
    expect(normalizeInviteCode('ABCDEFGHJKMNPQRSTVWXYZ01')).toBe('ABCDEFGHJKMNPQRSTVWXYZ01');
  });

  it('turns a blank or dash-only input into the empty string', () => {
    expect(normalizeInviteCode('')).toBe('');
    expect(normalizeInviteCode('  - -- ')).toBe('');
  });
});

describe('formatInviteCode', () => {
  it('shows a 24-character code as six dashed groups of four', () => {
    expect(formatInviteCode('ABCDEFGHJKMNPQRSTVWXYZ01')).toBe('ABCD-EFGH-JKMN-PQRS-TVWX-YZ01');
  });

  it('formats any typed form the same way', () => {
    expect(formatInviteCode('abcd efgh-jkmn pqrs-tvwx yz01')).toBe('ABCD-EFGH-JKMN-PQRS-TVWX-YZ01');
    expect(formatInviteCode('ABCD-EFGH-JKMN-PQRS-TVWX-YZ01')).toBe('ABCD-EFGH-JKMN-PQRS-TVWX-YZ01');
  });

  it('leaves a short last group and an empty code alone', () => {
    expect(formatInviteCode('ABCDEF')).toBe('ABCD-EF');
    expect(formatInviteCode('ABCD')).toBe('ABCD');
    expect(formatInviteCode('')).toBe('');
  });
});

describe('inviteDisplayStatus', () => {
  const now = new Date('2025-06-01T12:00:00.000Z');

  it('is Used when used, even if also expired', () => {
    expect(inviteDisplayStatus({ is_used: true, expires_at: '2025-06-08T12:00:00.000Z' }, now)).toBe('Used');
    expect(inviteDisplayStatus({ is_used: true, expires_at: '2025-05-01T12:00:00.000Z' }, now)).toBe('Used');
  });

  it('is Expired when unused and past its expiry (the expiry instant itself counts as past)', () => {
    expect(inviteDisplayStatus({ is_used: false, expires_at: '2025-05-31T12:00:00.000Z' }, now)).toBe('Expired');
    expect(inviteDisplayStatus({ is_used: false, expires_at: '2025-06-01T12:00:00.000Z' }, now)).toBe('Expired');
  });

  it('is Active when unused and not yet expired', () => {
    expect(inviteDisplayStatus({ is_used: false, expires_at: '2025-06-01T12:00:00.001Z' }, now)).toBe('Active');
    expect(inviteDisplayStatus({ is_used: false, expires_at: '2025-06-08T12:00:00.000Z' }, now)).toBe('Active');
  });
});

describe('generateInviteInput', () => {
  it('defaults to 7 days with no input or an empty object', () => {
    expect(INVITE_DAYS_DEFAULT).toBe(7);
    expect(generateInviteInput.parse(undefined)).toEqual({ days_valid: 7 });
    expect(generateInviteInput.parse({})).toEqual({ days_valid: 7 });
  });

  it('accepts 1 to 365 as a JSON number', () => {
    expect(generateInviteInput.parse({ days_valid: 1 })).toEqual({ days_valid: 1 });
    expect(generateInviteInput.parse({ days_valid: 365 })).toEqual({ days_valid: 365 });
  });

  it.each([
    [0, 'days_valid must be between 1 and 365'],
    [-3, 'days_valid must be between 1 and 365'],
    [366, 'days_valid must be between 1 and 365'],
    [1.5, 'days_valid must be a whole number of days'],
    ['soon', 'days_valid must be a number'],
    ['30', 'days_valid must be a number'],
    [[[[2]]], 'days_valid must be a number'],
    [true, 'days_valid must be a number'],
  ])('refuses %j with "%s"', (days_valid, message) => {
    const result = generateInviteInput.safeParse({ days_valid });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('listInvitesInput', () => {
  it('defaults to 50 and reads digits from the query string', () => {
    expect(INVITE_LIST_LIMIT).toBe(50);
    expect(listInvitesInput.parse(undefined)).toEqual({ limit: 50 });
    expect(listInvitesInput.parse({ limit: '3' })).toEqual({ limit: 3 });
  });

  it.each([0, 201, '0', '-3', '2.5', ['3']])('refuses limit %j', (limit) => {
    const result = listInvitesInput.safeParse({ limit });
    expect(result.error?.issues[0]?.message).toBe('limit must be between 1 and 200');
  });
});
