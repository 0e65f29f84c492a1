import { PASSKEY_ALPHABET, PASSKEY_INVALID, PASSKEY_LENGTH } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { failuresWithinLimits, RATE_LIMITS, secretThrottleKey } from '../../platform/rate-limit.ts';
import { notFound } from '../../platform/errors.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { passkeys } from '../auth/service.ts';

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
}

/**
 * The owner of a typed passkey, within the guess budgets: wrong codes spend the address's budget
 * and the code's own (so a flood at one code from many addresses locks that code); a right code
 * spends nothing, so loading a shared /connect link again and again never locks anyone out.
 */
export function findPasskeyOwnerLimited({ db, appSecret, ip, passkey }: PasskeyAttempt): Promise<PasskeyOwner> {
  const limits = [
    { key: `passkey:${ip}`, rule: RATE_LIMITS.passkey },
    { key: secretThrottleKey(appSecret, 'passkey-code', passkey), rule: RATE_LIMITS.passkeyCode },
  ];
  return failuresWithinLimits(db, limits, () => findPasskeyOwner(db, passkey));
}
