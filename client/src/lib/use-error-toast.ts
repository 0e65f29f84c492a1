import { useEffect } from 'react';
import { toast } from 'sonner';
import { isUnauthorizedError } from './trpc';

interface FailingQuery {
  isError: boolean;
  error: unknown;
  errorUpdatedAt: number;
}

/**
 * One error toast per failed load (a poll that keeps failing does not stack copies). A refused
 * session is left to the sign-in redirect instead.
 */
export function useErrorToast(query: FailingQuery, message: string) {
  const failedAt = query.isError && !isUnauthorizedError(query.error) ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt > 0) toast.error(message, { id: message });
  }, [failedAt, message]);
}
