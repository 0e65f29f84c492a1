import { LOG_LIST_DEFAULT_LIMIT, LOGS_POLL_MS } from '@clipshift/shared';
import { trpc } from '@/lib/trpc';
import { useErrorToast } from '@/lib/use-error-toast';

export const LOAD_LOGS_FAILED = 'Failed to load logs';

/** The newest 500 entries, refreshed every 10 s while auto-refresh is on (spec section 7). */
export function useLogEntries(autoRefresh: boolean) {
  const query = trpc.logs.list.useQuery(
    { limit: LOG_LIST_DEFAULT_LIMIT },
    { refetchInterval: autoRefresh ? LOGS_POLL_MS : false },
  );
  useErrorToast(query, LOAD_LOGS_FAILED);
  return query;
}
