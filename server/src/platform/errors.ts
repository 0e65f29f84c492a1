import type { ErrorCode } from '@clipshift/shared';

/**
 * The contract's codes an expected failure may carry. 416 is answered by the file routes alone, 431
 * by the HTTP server before any route, and an internal error is never expected, so none is an AppError.
 */
export type AppErrorCode = Exclude<ErrorCode, 'RANGE_NOT_SATISFIABLE' | 'REQUEST_HEADER_FIELDS_TOO_LARGE' | 'INTERNAL_SERVER_ERROR'>;

/** Data an error carries for the transport; the http layer decides what of it a client sees. */
type AppErrorDetails = Readonly<Record<string, unknown>>;

interface AppErrorOptions {
  details?: AppErrorDetails;
  cause?: unknown;
}

/**
 * An expected failure with a human message, thrown by domains and platform alike. It knows nothing
 * of HTTP or tRPC: http/errors.ts maps its code to a status and a body, once.
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details: AppErrorDetails | undefined;
  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
/** A third party (Twitch, a posting platform, transcription) refused or failed the work. */
export const badGateway = (message: string, cause?: unknown) => new AppError('BAD_GATEWAY', message, { cause });
/** A held request cut short because the process is shutting down; the work itself carries on. */
export const serviceRestarting = (message: string) => new AppError('SERVICE_UNAVAILABLE', message);
/** A held request that waited as long as it may; the work carries on in the background, as on shutdown. */
export const stillWorking = (message: string) => new AppError('SERVICE_UNAVAILABLE', message);
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable right now. Please try again in a moment.';
/** A request that failed because the database cannot be reached: a 503 to retry, not a bug. */
export const databaseUnavailable = (cause?: unknown) => new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, { cause });
