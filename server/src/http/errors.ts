import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { ErrorBody, ErrorCode } from '@clipshift/shared';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../platform/db/errors.ts';

type TRPCCode = TRPCError['code'];

/**
 * An expected failure with a human message. `extra` fields join the REST error body (e.g.
 * `{ok:false}` on subtitle failures) and the tRPC error data.
 */
export class AppError extends TRPCError {
  readonly extra: Record<string, unknown> | undefined;
  constructor(code: TRPCCode, message: string, extra?: Record<string, unknown>, cause?: unknown) {
    super({ code, message, cause });
    this.extra = extra;
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError('BAD_REQUEST', message, extra);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError('CONFLICT', message, extra);
/** A held request cut short because the process is shutting down; the work itself carries on. */
export const serviceRestarting = (message: string, extra?: Record<string, unknown>) => new AppError('SERVICE_UNAVAILABLE', message, extra);
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable right now. Please try again in a moment.';
/** A request that failed because the database cannot be reached: a 503 to retry, not a bug. */
export const databaseUnavailable = (cause?: unknown) => new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, undefined, cause);

/** The tRPC codes this app uses, named as the REST contract names them. */
const REST_CODE: Partial<Record<TRPCCode, ErrorCode>> = {
  PARSE_ERROR: 'BAD_REQUEST',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  BAD_GATEWAY: 'BAD_GATEWAY',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

/** The validation failure behind a 400; a ZodError behind any other code (e.g. output validation) is internal. */
function zodCause(error: TRPCError): ZodError | undefined {
  return error.code === 'BAD_REQUEST' && error.cause instanceof ZodError ? error.cause : undefined;
}

/** An unexpected error whose cause is a database outage (any path that did not map it already). */
function isOutage(error: TRPCError): boolean {
  return !(error instanceof AppError) && getHTTPStatusCodeFromError(error) >= 500 && isDatabaseUnavailable(error.cause);
}

/** The one mapping from an error to the HTTP status and JSON body every route answers with. */
export function toErrorResponse(error: TRPCError): { status: number; body: ErrorBody & Record<string, unknown> } {
  if (isOutage(error)) return toErrorResponse(databaseUnavailable(error.cause));
  const status = getHTTPStatusCodeFromError(error);
  const code = REST_CODE[error.code] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
  const zod = zodCause(error);
  let message = error.message;
  let issues: ErrorBody['issues'];
  if (zod) {
    issues = zod.issues.map((issue) => ({
      path: issue.path.filter((part): part is string | number => typeof part !== 'symbol'),
      message: issue.message,
    }));
    message = issues[0]?.message ?? 'Invalid input';
  } else if (code === 'INTERNAL_SERVER_ERROR') {
    // Internal details stay in the server log, never in an answer.
    message = INTERNAL_MESSAGE;
  }
  const extra = error instanceof AppError ? error.extra : undefined;
  return {
    status,
    body: { ...extra, error: message, message, code, ...(issues ? { issues } : {}) },
  };
}

/**
 * Whether an error is a fault of ours worth an ERROR row in the system log. A database outage is
 * not (and its ERROR row could not be written anyway).
 */
export function isServerFault(error: TRPCError): boolean {
  return getHTTPStatusCodeFromError(error) >= 500 && !(error instanceof AppError) && !isOutage(error);
}
