import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { reportSessionExpired } from '@/api/session';
import { isNetworkError, isUnauthorizedError } from '@/api/errors';

const MAX_RETRIES = 1;

/** One retry for a lost connection; answers from the server (4xx, 5xx) are final. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  return isNetworkError(error) && failureCount < MAX_RETRIES;
}

/**
 * The one error interceptor: every failed query and mutation passes here first. A refused session
 * signs the tab out (and so leads to /login, remembering the page) whichever call met it, so no
 * screen checks for it; the screens' own failure toasts stay silent for it (api/errors).
 */
function interceptError(error: unknown): void {
  if (isUnauthorizedError(error)) reportSessionExpired();
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: interceptError }),
    mutationCache: new MutationCache({ onError: interceptError }),
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 5_000 },
      mutations: { retry: false },
    },
  });
}
