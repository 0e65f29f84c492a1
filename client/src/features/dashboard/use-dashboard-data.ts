import { useEffect, useRef } from 'react';
import { DASHBOARD_STATUS_POLL_MS, DASHBOARD_STREAMER_REFRESH_MS } from '@clipshift/shared';
import { useDownloadStatus } from '@/api/downloads';
import { useStreamerList } from '@/api/streamers';

/**
 * The dashboard's two polls (spec section 7): download status every 5 s, and the streamer list
 * every 30 s or as soon as the number of status entries changes (a run started elsewhere, e.g.
 * by a schedule, or a streamer deleted).
 */
export function useDashboardData() {
  const status = useDownloadStatus(DASHBOARD_STATUS_POLL_MS);
  const streamers = useStreamerList({ refetchInterval: DASHBOARD_STREAMER_REFRESH_MS });
  const entryCount = status.data ? Object.keys(status.data).length : null;
  const lastCount = useRef<number | null>(null);
  const { refetch: refetchStreamers } = streamers;

  useEffect(() => {
    if (entryCount === null) return;
    if (lastCount.current !== null && lastCount.current !== entryCount) void refetchStreamers();
    lastCount.current = entryCount;
  }, [entryCount, refetchStreamers]);

  return { status, streamers };
}
