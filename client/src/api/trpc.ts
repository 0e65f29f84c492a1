import { createTRPCReact } from '@trpc/react-query';
import { httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { MAX_TRPC_BATCH } from '@clipshift/shared';
import type { AppRouter } from '@clipshift/server';
import { HttpStatusError } from './errors';

/** The typed tRPC hooks; only api/ uses them, screens call the domain hooks beside this file. */
export const trpc = createTRPCReact<AppRouter>();

const TRPC_URL = '/api/trpc';

/**
 * Calls that answer only when long work ends (subtitles, posting to TikTok): sent on their own so
 * they never hold a batch of quick calls hostage.
 */
const LONG_RUNNING = new Set(['subtitles.generate', 'posting.post']);

/** One tRPC answer: a result, or an error envelope (an object; a REST error's `error` is its message). */
function isTrpcItem(item: unknown): boolean {
  if (item === null || typeof item !== 'object') return false;
  if ('result' in item) return true;
  return 'error' in item && item.error !== null && typeof item.error === 'object';
}

/** A tRPC answer, single or batched: what the links can read. */
function isTrpcBody(body: unknown): boolean {
  const items = Array.isArray(body) ? body : [body];
  return items.length > 0 && items.every(isTrpcItem);
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.clone().json();
  } catch {
    return null;
  }
}

/**
 * Every call carries the session cookie (spec section 6). A non-OK answer that is not tRPC's (a
 * proxy's HTML 502, a REST route's JSON error such as the studio pictures' or the logo's) becomes
 * an HttpStatusError with its message, so it is not mistaken for a lost connection or a success.
 */
export const apiFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, { ...init, credentials: 'include' });
  if (response.ok) return response;
  const body = await readJson(response);
  if (isTrpcBody(body)) return response;
  throw new HttpStatusError(response.status, body);
};

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      splitLink({
        condition: (operation) => LONG_RUNNING.has(operation.path),
        true: httpLink({ url: TRPC_URL, fetch: apiFetch }),
        // The server refuses larger batches; the link splits them instead.
        false: httpBatchLink({ url: TRPC_URL, fetch: apiFetch, maxItems: MAX_TRPC_BATCH }),
      }),
    ],
  });
}
