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

/** A tRPC answer, single or batched: what the links can read. */
function isTrpcBody(body: unknown): boolean {
  const items = Array.isArray(body) ? body : [body];
  return items.length > 0 && items.every((item) => item !== null && typeof item === 'object' && ('error' in item || 'result' in item));
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.clone().json();
  } catch {
    return null;
  }
}

/**
 * Every call carries the session cookie (spec section 6). A non-OK answer the API did not write (a
 * proxy's HTML 502) becomes an HttpStatusError, so it is not mistaken for a lost connection.
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
