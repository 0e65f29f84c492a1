import { LOG_LIST_DEFAULT_LIMIT, LOGS_POLL_MS, RECENT_LOGS_COUNT } from '@clipshift/shared';
import { useLoadErrorToast } from './errors';
import { trpc } from './trpc';

export const LOAD_LOGS_FAILED = 'Failed to load logs';

/** The newest 500 entries, refreshed every 10 s while auto-refresh is on (spec section 7). */
export function useLogEntries(autoRefresh: boolean) {
  const query = trpc.logs.list.useQuery({ limit: LOG_LIST_DEFAULT_LIMIT }, { refetchInterval: autoRefresh ? LOGS_POLL_MS : false });
  useLoadErrorToast(query, LOAD_LOGS_FAILED);
  return query;
}

/** The five newest entries, for Settings. */
export function useRecentLogs() {
  const query = trpc.logs.list.useQuery({ limit: RECENT_LOGS_COUNT });
  useLoadErrorToast(query, LOAD_LOGS_FAILED);
  return query;
}
