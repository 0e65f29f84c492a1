import { z } from 'zod';

/**
 * Input rules every route shares (rest-api.md "Hardening rules"): ids are UUIDs, and numbers keep
 * their JSON type except where they travel in a query string.
 */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * The id of a stored row (TikTok account, upload…) as a caller sends it. Text that cannot be a UUID
 * names no row, so it becomes null and the lookup answers 404 exactly as for a missing row, rather
 * than reaching PostgreSQL as a malformed uuid.
 */
export function rowId(message = 'id is required') {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .transform((value) => (isUuid(value) ? value.toLowerCase() : null));
}

const DIGITS = /^\d+$/;

/**
 * A whole number of an input that REST reads from the query string: a string of digits only there
 * (no sign, point, exponent, space or repeat), or a JSON number where tRPC sends the input as JSON.
 * `number` carries the bounds and their messages; `message` is for anything that is not a number.
 */
export function queryInt<T extends z.ZodNumber>(number: T, message: string) {
  return z
    .union([z.number(), z.string().regex(DIGITS).transform(Number)], { error: message })
    .pipe(number);
}

/** Digits with an optional decimal part: the query-string form of queryNumber (also for documents). */
export const QUERY_NUMBER_PATTERN = '^[0-9]+(\\.[0-9]+)?$';
const DECIMAL = new RegExp(QUERY_NUMBER_PATTERN);

/**
 * A number of an input that REST reads from the query string, e.g. seconds: digits with an
 * optional decimal part there (no sign, exponent, space or repeat), or a JSON number over tRPC.
 */
export function queryNumber<T extends z.ZodNumber>(number: T, message: string) {
  return z
    .union([z.number(), z.string().regex(DECIMAL).transform(Number)], { error: message })
    .pipe(number);
}
