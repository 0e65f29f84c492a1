import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { isUnauthorizedError, trpc } from '@/lib/trpc';
import { clipMessages } from './clip-messages';

/**
 * A clip's details with its transcript, fetched fresh each time the modal opens. A failed load
 * says so and calls `onFailed` (the modal closes); a failure cached from an earlier opening does not.
 */
export function useClipDetails(clipId: string, onFailed: () => void) {
  const [openedAt] = useState(Date.now);
  const onFailedRef = useRef(onFailed);
  useEffect(() => {
    onFailedRef.current = onFailed;
  }, [onFailed]);

  const query = trpc.clips.details.useQuery({ id: clipId }, { staleTime: 0 });
  const failedAt = query.isError && query.errorUpdatedAt >= openedAt ? query.errorUpdatedAt : 0;
  const unauthorized = isUnauthorizedError(query.error);

  useEffect(() => {
    if (failedAt === 0) return;
    if (!unauthorized) toast.error(clipMessages.detailsFailed);
    onFailedRef.current();
  }, [failedAt, unauthorized]);

  return query;
}
