import { createTRPCReact } from '@trpc/react-query';
import { MAX_TRPC_BATCH } from '@clipshift/shared';
import { httpBatchLink, httpLink, splitLink, TRPCClientError, type TRPCClientErrorLike } from '@trpc/client';
import type { AppRouter } from '../../../server/src/trpc/router';

export const trpc = createTRPCReact<AppRouter>();

export const TRPC_URL = '/api/trpc';

/**
 * Calls that answer only when long work ends (subtitles, posting to TikTok): sent on their own so
 * they never hold a batch of quick calls hostage.
 */
const LONG_RUNNING = new Set(['subtitles.generate', 'tiktok.post']);

const withCookie: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'include' });

/** Every call carries the session cookie (spec section 6). */
export function createTrpcClient() {
  return trpc.createClient({
    links: [
      splitLink({
        condition: (operation) => LONG_RUNNING.has(operation.path),
        true: httpLink({ url: TRPC_URL, fetch: withCookie }),
        // The server refuses larger batches; the link splits them instead.
        false: httpBatchLink({ url: TRPC_URL, fetch: withCookie, maxItems: MAX_TRPC_BATCH }),
      }),
    ],
  });
}

export type ApiError = TRPCClientErrorLike<AppRouter>;

export const NETWORK_ERROR = 'Network error. Please try again.';

function asApiError(error: unknown): ApiError | null {
  return error instanceof TRPCClientError ? (error as ApiError) : null;
}

/** No answer from the server at all (offline, refused, or not a tRPC reply). */
export function isNetworkError(error: unknown): boolean {
  const apiError = asApiError(error);
  return apiError === null || apiError.data === undefined || apiError.data === null;
}

export function isUnauthorizedError(error: unknown): boolean {
  return asApiError(error)?.data?.code === 'UNAUTHORIZED';
}

/** The server's human message when it answered; null when it did not. */
export function serverMessage(error: unknown): string | null {
  if (isNetworkError(error)) return null;
  return asApiError(error)?.message || null;
}

/** The message a form shows: the server's, the network notice, or the form's own fallback. */
export function formErrorMessage(error: unknown, fallback: string): string {
  if (isNetworkError(error)) return NETWORK_ERROR;
  return serverMessage(error) ?? fallback;
}

/** For "{what}: {message}" toasts: the server's message, else what the browser knows. */
export function describeError(error: unknown): string {
  return serverMessage(error) ?? (isNetworkError(error) ? NETWORK_ERROR : 'Unknown error');
}

/** A field the server refused, as its validation reports it (e.g. path ['schedule', 'interval']). */
export interface ServerIssue {
  path: (string | number)[];
  message: string;
}

/** The tRPC code of a server answer (e.g. 'CONFLICT', 'BAD_REQUEST'); null when it did not answer. */
export function errorCode(error: unknown): NonNullable<ApiError['data']>['code'] | null {
  if (isNetworkError(error)) return null;
  return asApiError(error)?.data?.code ?? null;
}

/** The per-field refusals of an input the server validated; empty for any other failure. */
export function serverIssues(error: unknown): ServerIssue[] {
  if (isNetworkError(error)) return [];
  return asApiError(error)?.data?.issues ?? [];
}
