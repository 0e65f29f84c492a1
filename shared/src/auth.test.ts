import { describe, expect, it } from 'vitest';
import {
  CREDENTIALS_REQUIRED,
  INVITE_CODE_TEXT,
  loginInput,
  PASSWORD_MAX_RULE,
  PASSWORD_RULE,
  registerInput,
  registrationStatusFor,
  USERNAME_RULE,
} from './auth.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message);

describe('registrationStatusFor', () => {
  it('maps the modes as the contract says once a user exists', () => {
    expect(registrationStatusFor('open', true)).toEqual({ enabled: true, invite_required: false });
    expect(registrationStatusFor('invite', true)).toEqual({ enabled: false, invite_required: true });
    expect(registrationStatusFor('closed', true)).toEqual({ enabled: false, invite_required: false });
  });

  it('is open in every mode while no user exists', () => {
    for (const mode of ['open', 'invite', 'closed'] as const) {
      expect(registrationStatusFor(mode, false)).toEqual({ enabled: true, invite_required: false });
    }
  });
});

describe('loginInput', () => {
  it('trims the username but never the password', () => {
    expect(loginInput.parse({ username: '  alice ', password: ' secret pass ' })).toEqual({
      username: 'alice',
      password: ' secret pass ',
    });
  });

  it.each([
    [{}, [CREDENTIALS_REQUIRED, CREDENTIALS_REQUIRED]],
    [{ username: 'alice' }, [CREDENTIALS_REQUIRED]],
    [{ password: 'secret' }, [CREDENTIALS_REQUIRED]],
    [{ username: '   ', password: 'secret' }, [CREDENTIALS_REQUIRED]],
    [{ username: 'alice', password: '   ' }, [CREDENTIALS_REQUIRED]],
    [{ username: 42, password: 'secret' }, [CREDENTIALS_REQUIRED]],
  ])('refuses %j with the spec message', (input, expected) => {
    expect(messages(loginInput.safeParse(input))).toEqual(expected);
  });

  it('says the spec message for a body that is not an object', () => {
    for (const input of [null, 'alice', [], 42]) {
      expect(messages(loginInput.safeParse(input))).toEqual([CREDENTIALS_REQUIRED]);
    }
  });
});

describe('registerInput', () => {
  it('accepts 3 to 32 letters, digits, _, - and . and trims the username', () => {
    for (const username of ['abc', 'A.b-c_9', 'x'.repeat(32)]) {
      expect(registerInput.parse({ username, password: 'longenough' }).username).toBe(username);
    }
    expect(registerInput.parse({ username: '  bob  ', password: 'longenough' }).username).toBe('bob');
  });

  it('keeps an optional invite code as typed', () => {
    expect(registerInput.parse({ username: 'bob', password: 'longenough', invite_code: 'abcd-efgh' }).invite_code).toBe(
      'abcd-efgh',
    );
    expect(registerInput.parse({ username: 'bob', password: 'longenough', invite_code: null }).invite_code).toBeNull();
    expect(registerInput.parse({ username: 'bob', password: 'longenough' }).invite_code).toBeUndefined();
  });

  it.each([
    [{ username: 'ab', password: 'longenough' }, [USERNAME_RULE]],
    [{ username: 'x'.repeat(33), password: 'longenough' }, [USERNAME_RULE]],
    [{ username: 'bad name', password: 'longenough' }, [USERNAME_RULE]],
    [{ username: 'bad!', password: 'longenough' }, [USERNAME_RULE]],
    [{ username: 'émile', password: 'longenough' }, [USERNAME_RULE]],
    [{ username: 'alice', password: 'seven77' }, [PASSWORD_RULE]],
    [{ username: 'alice', password: 'x'.repeat(257) }, [PASSWORD_MAX_RULE]],
    [{ username: 'alice', password: '        ' }, [CREDENTIALS_REQUIRED]],
    [{ username: '', password: 'longenough' }, [CREDENTIALS_REQUIRED]],
    [{ username: 'alice' }, [CREDENTIALS_REQUIRED]],
    [{ username: 'alice', password: 'longenough', invite_code: 5 }, [INVITE_CODE_TEXT]],
  ])('refuses %j', (input, expected) => {
    expect(messages(registerInput.safeParse(input))).toEqual(expected);
  });

  it('accepts a password of exactly 8 and of 256 characters', () => {
    expect(registerInput.safeParse({ username: 'alice', password: '12345678' }).success).toBe(true);
    expect(registerInput.safeParse({ username: 'alice', password: 'x'.repeat(256) }).success).toBe(true);
  });

  it('names the rules in its messages', () => {
    expect(USERNAME_RULE).toBe('Username must be 3 to 32 characters: letters, digits, _, - or .');
    expect(PASSWORD_RULE).toBe('Password must be at least 8 characters');
    expect(CREDENTIALS_REQUIRED).toBe('Username and password are required');
  });
});

describe('registerInput on a body that is not an object', () => {
  it('says the spec message', () => {
    for (const input of [null, 'alice', [], 42]) {
      expect(messages(registerInput.safeParse(input))).toEqual([CREDENTIALS_REQUIRED]);
    }
    expect(INVITE_CODE_TEXT).toBe('Invite code must be text');
  });
});
