import { PASSKEY_ALPHABET, PASSKEY_INVALID, PASSKEY_LENGTH } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { failuresWithinLimits, RATE_LIMITS, secretThrottleKey } from '../../platform/rate-limit.ts';
import { notFound } from '../../platform/errors.ts';

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
    const existing = await db.selectFrom('users').select('passkey').where('id', '=', userId).executeTakeFirstOrThrow();
    if (existing.passkey) return existing.passkey;
    try {
      const updated = await db
        .updateTable('users')
        .set({ passkey: randomPasskey() })
        .where('id', '=', userId)
        .where('passkey', 'is', null)
        .returning('passkey')
        .executeTakeFirst();
      if (updated?.passkey) return updated.passkey;
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
    }
  }
  throw new Error('Could not allocate a unique passkey');
}

export interface PasskeyOwner {
  id: string;
  username: string;
}

export async function findPasskeyOwner(db: DbOrTrx, passkey: string): Promise<PasskeyOwner> {
  const owner = await db.selectFrom('users').select(['id', 'username']).where('passkey', '=', passkey).executeTakeFirst();
  if (!owner) throw notFound(PASSKEY_INVALID);
  return owner;
}

export interface PasskeyAttempt {
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
