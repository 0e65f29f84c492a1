import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP "Slow brute-force / device cookies"): after a successful sign-in the
 * browser gets a signed entry naming the account (an HMAC of the username, never the name) and a
 * random nonce. A later sign-in to that account presenting a valid entry is exempt from the
 * account's lock and limited per nonce instead, so an attacker locking an account cannot lock its
 * owner out. One cookie holds the entries of the last few accounts signed in from the browser.
 */
export const DEVICE_COOKIE = 'clipshift_device';
export const DEVICE_COOKIE_TTL_MS = 365 * 24 * 60 * 60 * 1000;
/** Accounts remembered per browser; the oldest entry goes first. */
const MAX_ENTRIES = 5;
const ENTRY_SEPARATOR = '~';
/** base64url of 32 bytes (HMAC-SHA256) and of 16 bytes (nonce). */
const ENTRY_SHAPE = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export interface DeviceEntry {
  accountKey: string;
  nonce: string;
}

function derivedKey(appSecret: string, purpose: string): Buffer {
  return createHmac('sha256', `clipshift device cookie\0${appSecret}`).update(purpose).digest();
}

/** The account a username names, as device cookies and the account lock know it: case-insensitive. */
export function accountKeyFor(appSecret: string, username: string): string {
  return createHmac('sha256', derivedKey(appSecret, 'account')).update(username.toLowerCase()).digest('base64url');
}

function signature(appSecret: string, accountKey: string, nonce: string): string {
  return createHmac('sha256', derivedKey(appSecret, 'signature')).update(`${accountKey}.${nonce}`).digest('base64url');
}

/** The signed entries of a cookie; anything tampered with is left out. */
function validEntries(appSecret: string, cookie: string | undefined): (DeviceEntry & { text: string })[] {
  const valid: (DeviceEntry & { text: string })[] = [];
  for (const text of cookie && cookie.length <= 4096 ? cookie.split(ENTRY_SEPARATOR).slice(0, MAX_ENTRIES) : []) {
    const [, accountKey, nonce, sig] = ENTRY_SHAPE.exec(text) ?? [];
    if (!accountKey || !nonce || !sig) continue;
    const expected = Buffer.from(signature(appSecret, accountKey, nonce));
    const given = Buffer.from(sig);
    if (expected.length === given.length && timingSafeEqual(expected, given)) valid.push({ accountKey, nonce, text });
  }
  return valid;
}

/** The cookie's entry for this account when its signature holds. */
export function deviceEntryFor(appSecret: string, cookie: string | undefined, accountKey: string): DeviceEntry | null {
  const entry = validEntries(appSecret, cookie).find((candidate) => candidate.accountKey === accountKey);
  return entry ? { accountKey: entry.accountKey, nonce: entry.nonce } : null;
}

/** The cookie after a successful sign-in: a fresh entry for the account first, other accounts' entries kept. */
export function issueDeviceCookie(appSecret: string, cookie: string | undefined, accountKey: string): string {
  const nonce = randomBytes(16).toString('base64url');
  const fresh = `${accountKey}.${nonce}.${signature(appSecret, accountKey, nonce)}`;
  const others = validEntries(appSecret, cookie)
    .filter((entry) => entry.accountKey !== accountKey)
    .map((entry) => entry.text);
  return [fresh, ...others].slice(0, MAX_ENTRIES).join(ENTRY_SEPARATOR);
}

/**
 * The key of the entry a browser gets on the guest page (/connect): the same signed machinery,
 * naming a guest visit instead of an account, so a guest's passkey guesses are limited per browser.
 * Usernames have no NUL, so no account shares this key.
 */
export function guestVisitKey(appSecret: string): string {
  return accountKeyFor(appSecret, '\0guest visit');
}

/** The browser's valid entry for the key, kept as it is; else a fresh one and the cookie that carries it. */
export function keepOrIssueDeviceEntry(appSecret: string, cookie: string | undefined, key: string): { entry: DeviceEntry; cookie: string | null } {
  const existing = deviceEntryFor(appSecret, cookie, key);
  if (existing) return { entry: existing, cookie: null };
  const issued = issueDeviceCookie(appSecret, cookie, key);
  return { entry: deviceEntryFor(appSecret, issued, key)!, cookie: issued };
}
