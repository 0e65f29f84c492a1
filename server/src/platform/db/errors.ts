/**
 * Error codes that mean "the database cannot be reached right now" rather than "this query is
 * wrong": network errors from the socket, PostgreSQL's shutdown / start-up / connection classes.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // admin_shutdown, crash_shutdown, cannot_connect_now (starting up or in recovery)
  '57P01',
  '57P02',
  '57P03',
  // connection_exception and its subclasses
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** pg's own wording for a socket that went away (these errors carry no code). */
const UNAVAILABLE_MESSAGES = /Connection terminated|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect/i;

/**
 * Whether an error (or anything in its cause chain, or an AggregateError's members) says the
 * database is unreachable. Such failures are outages to wait out, not bugs to report.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((member) => isDatabaseUnavailable(member, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** PostgreSQL's unique_violation: a row with the same key exists (often a race another request won). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
