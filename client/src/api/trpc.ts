import { createTRPCReact } from '@trpc/react-query';
import { httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { MAX_TRPC_BATCH } from '@clipshift/shared';
import type { AppRouter } from '@clipshift/server';

/** The typed tRPC hooks; only api/ uses them, screens call the domain hooks beside this file. */
export const trpc = createTRPCReact<AppRouter>();

const TRPC_URL = '/api/trpc';

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
