import { useEffect } from 'react';
import { toast, type ExternalToast } from 'sonner';
import { TRPCClientError, type TRPCClientErrorLike } from '@trpc/client';
import type { AppRouter } from '@clipshift/server';
import { messageFromErrorBody } from '@clipshift/shared';

/*
 * The one place that reads a failed call. An unauthorized answer is handled once, by the query
 * client's interceptor (app/providers): the helpers here never toast it.
 */

type ApiError = TRPCClientErrorLike<AppRouter>;
type ApiErrorCode = NonNullable<ApiError['data']>['code'];

/** What a form shows when the server could not be reached (spec section 8). */
export const NETWORK_ERROR = 'Network error. Please try again.';
const UNKNOWN_ERROR = 'Unknown error';

/** What a load failure says when nothing answered (a real network failure). */
export const UNREACHABLE_DESCRIPTION = 'The server could not be reached. Check your connection and try again.';

/**
 * A non-OK answer that is not the API's own (an HTML 502 of a proxy, a bare 500): the server was
 * reached, so it is worded by its status ('HTTP error! status: N') or its body's message.
 */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    body: unknown,
  ) {
    super(messageFromErrorBody(body, status));
    this.name = 'HttpStatusError';
  }
}

function asApiError(error: unknown): ApiError | null {
  return error instanceof TRPCClientError ? (error as ApiError) : null;
}

/** The HTTP failure under a call's error, when an answer came that the API did not write. */
function httpStatusError(error: unknown): HttpStatusError | null {
  if (error instanceof HttpStatusError) return error;
  const cause = error instanceof TRPCClientError ? error.cause : null;
  return cause instanceof HttpStatusError ? cause : null;
}

/** No answer from the server at all (offline, refused, connection lost). */
export function isNetworkError(error: unknown): boolean {
  if (httpStatusError(error)) return false;
  const data = asApiError(error)?.data;
  return data === undefined || data === null;
}

/** A refused session: a tRPC UNAUTHORIZED, or a 401 from a plain fetch (the studio's pictures). */
export function isUnauthorizedError(error: unknown): boolean {
  return asApiError(error)?.data?.code === 'UNAUTHORIZED' || httpStatusError(error)?.status === 401;
}

/** The tRPC code of a server answer (e.g. 'CONFLICT', 'BAD_REQUEST'); null when it did not answer. */
export function errorCode(error: unknown): ApiErrorCode | null {
  if (isNetworkError(error)) return null;
  return asApiError(error)?.data?.code ?? null;
}

/** The server's human message when it answered; null when it did not. */
export function serverMessage(error: unknown): string | null {
  if (isNetworkError(error)) return null;
  const http = httpStatusError(error);
  if (http) return http.message;
  return asApiError(error)?.message || null;
}

/** The second line of a failed load: why it failed, in the server's words when it answered. */
export function loadFailureDescription(error: unknown, unreachable = UNREACHABLE_DESCRIPTION): string {
  return serverMessage(error) ?? unreachable;
}

/** A field the server refused, as its validation reports it (e.g. path ['schedule', 'interval']). */
export interface ServerIssue {
  path: (string | number)[];
  message: string;
}

/** The per-field refusals of an input the server validated; empty for any other failure. */
export function serverIssues(error: unknown): ServerIssue[] {
  if (isNetworkError(error)) return [];
  return asApiError(error)?.data?.issues ?? [];
}

/** How one action words its failures (spec section 8). */
export interface FailureWords {
  /** The server answered without a message. */
  fallback: string;
  /** The server could not be reached; the fallback when not given. */
  offline?: string;
  /** "Error: {server message}" instead of the bare message. */
  prefixed?: boolean;
}

/** The words for a failed call: the server's message (prefixed or not), the fallback, or the offline text. */
export function failureText(error: unknown, { fallback, offline = fallback, prefixed = false }: FailureWords): string {
  if (isNetworkError(error)) return offline;
  const message = serverMessage(error);
  if (!message) return fallback;
  return prefixed ? `Error: ${message}` : message;
}

/** The message a form shows: the server's, the network notice, or the form's own fallback. */
export function formErrorMessage(error: unknown, fallback: string): string {
  return failureText(error, { fallback, offline: NETWORK_ERROR });
}

/** For "{what}: {reason}" toasts: the server's message, else what the browser knows. */
export function describeError(error: unknown): string {
  return formErrorMessage(error, UNKNOWN_ERROR);
}

/** The server's words when it refused because the work is already under way (409), else null. */
export function conflictMessage(error: unknown): string | null {
  return errorCode(error) === 'CONFLICT' ? serverMessage(error) : null;
}

/**
 * The failure toast of an action, worded by `words` (a plain string: the same words whatever the
 * server said). A refused session is left to the sign-in redirect.
 */
export function toastFailure(error: unknown, words: FailureWords | string, options?: ExternalToast): void {
  if (isUnauthorizedError(error)) return;
  toast.error(typeof words === 'string' ? words : failureText(error, words), options);
}

interface FailingQuery {
  isError: boolean;
  error: unknown;
  errorUpdatedAt: number;
}

/**
 * One error toast per failed load (a poll that keeps failing does not stack copies). A refused
 * session is left to the sign-in redirect instead.
 */
export function useLoadErrorToast(query: FailingQuery, message: string | null) {
  const failedAt = message !== null && query.isError && !isUnauthorizedError(query.error) ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt > 0 && message !== null) toast.error(message, { id: message });
  }, [failedAt, message]);
}
