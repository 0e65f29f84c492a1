import { PASSKEY_ALPHABET, PASSKEY_INVALID, PASSKEY_LENGTH } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { consumeRateLimit, failuresWithinLimits, RATE_LIMITS, secretThrottleKey, type KeyedRule } from '../../platform/rate-limit.ts';
import { notFound } from '../../platform/errors.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { deviceEntryFor, guestVisitKey, keepOrIssueDeviceEntry, passkeys } from '../auth/service.ts';

function randomPasskey(): string {
  // 36 symbols: reject bytes >= 252 so every symbol is equally likely.
  let passkey = '';
  while (passkey.length < PASSKEY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(PASSKEY_LENGTH * 2))) {
      if (byte < 252 && passkey.length < PASSKEY_LENGTH) passkey += PASSKEY_ALPHABET[byte % PASSKEY_ALPHABET.length];
    }
  }
  return passkey;
}

/** The user's passkey, created on first use; a collision with another user's code draws again. */
export async function ensurePasskey(db: DbOrTrx, userId: string): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const existing = await passkeys.read(db, userId);
    if (existing) return existing;
    try {
      const created = await passkeys.setIfNone(db, userId, randomPasskey());
      if (created) return created;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('Could not allocate a unique passkey');
}

interface PasskeyOwner {
  id: string;
  username: string;
}

async function findPasskeyOwner(db: DbOrTrx, passkey: string): Promise<PasskeyOwner> {
  const owner = await passkeys.findOwner(db, passkey);
  if (!owner) throw notFound(PASSKEY_INVALID);
  return owner;
}

interface PasskeyAttempt {
  db: DbOrTrx;
  appSecret: string;
  ip: string;
  passkey: string;
  /** The clipshift_device cookie as sent: it may carry the browser's guest visit. */
  deviceCookie: string | undefined;
}

/**
 * Starts a guest visit for the browser (the /connect page asks once it opens): an entry in its
 * device cookie that gives it a budget for wrong passkeys of its own. Returns the cookie to set,
 * or null when the browser already has a visit.
 */
export function startGuestVisit(appSecret: string, deviceCookie: string | undefined): string | null {
  return keepOrIssueDeviceEntry(appSecret, deviceCookie, guestVisitKey(appSecret)).cookie;
}

/**
 * Who pays for a wrong guess: the browser's guest visit when it has one, else the address (every
 * client that sends no visit shares it); the address as a whole too, so that starting visit after
 * visit buys a bounded number of guesses; and the code itself.
 */
function guessBudgets({ appSecret, ip, passkey, deviceCookie }: PasskeyAttempt): KeyedRule[] {
  const visit = deviceEntryFor(appSecret, deviceCookie, guestVisitKey(appSecret));
  return [
    { key: visit ? `passkey-visit:${visit.nonce}` : `passkey:${ip}`, rule: RATE_LIMITS.passkey },
    { key: `passkey-address:${ip}`, rule: RATE_LIMITS.passkeyAddress },
    { key: secretThrottleKey(appSecret, 'passkey-code', passkey), rule: RATE_LIMITS.passkeyCode },
  ];
}

/**
 * The owner of a typed passkey, within the guess budgets (decisions 0005 and 0028): wrong codes
 * spend the budgets of guessBudgets, a right code gives back what it was charged, so a spammer
 * spends their own browser's budget and a guest in another browser behind the same address still
 * gets in. Right codes are limited per address and owner, which only someone who knows the code
 * can spend: enough for any number of honest connections, not a flood of OAuth states.
 */
export async function findPasskeyOwnerLimited(attempt: PasskeyAttempt): Promise<PasskeyOwner> {
  const owner = await failuresWithinLimits(attempt.db, guessBudgets(attempt), () => findPasskeyOwner(attempt.db, attempt.passkey));
  await consumeRateLimit(attempt.db, `passkey-owner:${attempt.ip}:${owner.id}`, RATE_LIMITS.passkeyOwner);
  return owner;
}
