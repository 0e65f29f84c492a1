import { getTRPCErrorFromUnknown, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { ErrorBody, ErrorCode } from '@clipshift/shared';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../platform/db/errors.ts';
import { AppError, databaseUnavailable, type AppErrorCode } from '../platform/errors.ts';

type TRPCCode = TRPCError['code'];

/** An AppError's code as tRPC names it: the contract took tRPC's names, so this compiles only while they agree. */
const trpcCodeOf = (code: AppErrorCode): TRPCCode => code;

/** The tRPC codes this app uses, named as the REST contract names them. */
const REST_CODE: Partial<Record<TRPCCode, ErrorCode>> = {
  PARSE_ERROR: 'BAD_REQUEST',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_SUPPORTED',
  CONFLICT: 'CONFLICT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  BAD_GATEWAY: 'BAD_GATEWAY',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

/** The expected failure behind an error: the AppError itself, or the one tRPC wrapped as a cause. */
export function appErrorOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof TRPCError && error.cause instanceof AppError) return error.cause;
  return undefined;
}

/** Any thrown value as the TRPCError to answer with: an AppError gets its own code, anything else is tRPC's to judge. */
export function toTRPCError(error: unknown): TRPCError {
  const appError = appErrorOf(error);
  if (!appError) return getTRPCErrorFromUnknown(error);
  const code = trpcCodeOf(appError.code);
  if (error instanceof TRPCError && error.code === code) return error;
  return new TRPCError({ code, message: appError.message, cause: appError });
}

/** The validation failure behind a 400; a ZodError behind any other code (e.g. output validation) is internal. */
function zodCause(error: TRPCError): ZodError | undefined {
  return error.code === 'BAD_REQUEST' && error.cause instanceof ZodError ? error.cause : undefined;
}

/** An unexpected error whose cause is a database outage (any path that did not map it already). */
function isOutage(error: TRPCError): boolean {
  return !appErrorOf(error) && getHTTPStatusCodeFromError(error) >= 500 && isDatabaseUnavailable(error.cause);
}

/** The HTTP status an error answers with. */
export function statusOf(error: unknown): number {
  return getHTTPStatusCodeFromError(toTRPCError(error));
}

/**
 * The one mapping from an error to the HTTP status and JSON body every route answers with. `fields`
 * are what the route adds to the body of this failure (http/rest/routes.ts); they never replace the
 * contract's own fields.
 */
export function toErrorResponse(thrown: unknown, fields?: Record<string, unknown>): { status: number; body: ErrorBody & Record<string, unknown> } {
  const error = toTRPCError(thrown);
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
  return {
    status,
    body: { ...fields, error: message, message, code, ...(issues ? { issues } : {}) },
  };
}

/**
 * Whether an error is a fault of ours worth an ERROR row in the system log. A database outage is
 * not (and its ERROR row could not be written anyway).
 */
export function isServerFault(thrown: unknown): boolean {
  const error = toTRPCError(thrown);
  return getHTTPStatusCodeFromError(error) >= 500 && !appErrorOf(error) && !isOutage(error);
}
