import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * AES-256-GCM for third-party tokens at rest. The key is derived from APP_SECRET (which lives
 * outside the database); each value gets its own 96-bit IV, and the tag authenticates it.
 * Format: "v1:<iv>:<tag>:<ciphertext>", base64url parts.
 */
const VERSION = 'v1';

function keyFrom(secret: string): Buffer {
  return createHash('sha256').update(`clipshift token key\0${secret}`).digest();
}

export function encryptSecret(plaintext: string, appSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(appSecret), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

export function decryptSecret(stored: string, appSecret: string): string {
  const [version, iv, tag, data] = stored.split(':');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('Unreadable encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(appSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A key of its own per purpose, derived from APP_SECRET, so that a value signed for one use (a
 * media link) never passes for another.
 */
function signingKey(appSecret: string, purpose: string): Buffer {
  return createHmac('sha256', `clipshift signing key\0${appSecret}`).update(purpose).digest();
}

/** HMAC-SHA256 of `value` for `purpose`, base64url (43 characters). */
export function signValue(appSecret: string, purpose: string, value: string): string {
  return createHmac('sha256', signingKey(appSecret, purpose)).update(value).digest('base64url');
}

/** Whether `signature` is signValue's for this value, compared in constant time. */
export function hasValidSignature(appSecret: string, purpose: string, value: string, signature: string): boolean {
  const expected = Buffer.from(signValue(appSecret, purpose, value));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * What the database keeps of a high-entropy credential (a session's secret, an API token, an
 * approval link): its SHA-256. The value already carries its randomness, so no salt or slowness is
 * needed for the hash to be irreversible.
 */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
