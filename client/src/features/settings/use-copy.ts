import { useCallback } from 'react';
import { toast } from 'sonner';
import { copyText } from '@/lib/clipboard';

/** Copies text and says so in a toast, with the spec's success and failure messages. */
export function useCopyWithToast(success: string, failure: string) {
  return useCallback(
    async (text: string) => {
      if (await copyText(text)) toast.success(success);
      else toast.error(failure);
    },
    [success, failure],
  );
}
