import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * Marks <html data-pending> while the app loads or saves anything through the API, so that what
 * waits for the page to settle (browser tests, screenshots) waits for the app's own state rather
 * than for a stretch of network silence.
 */
export function PendingMarker() {
  const pending = useIsFetching() + useIsMutating();
  useEffect(() => {
    document.documentElement.toggleAttribute('data-pending', pending > 0);
  }, [pending]);
  return null;
}
