import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import type { StatusMap } from '@clipshift/shared';
import { useInvalidateClipLists } from '@/api/clips';
import { plural } from '@/lib/format';
import { clipsOfStreamer, finishedRuns } from './run-finished';

/**
 * The "done" moment: a run this page watched go from busy to completed gets a toast with its count
 * of new clips and a link to them. Runs already finished when the page opened stay quiet.
 */
export function useRunFinishedToast(status: StatusMap | undefined): void {
  const previous = useRef<StatusMap | null>(null);
  const invalidateClipLists = useInvalidateClipLists();
  useEffect(() => {
    if (!status) return;
    const before = previous.current;
    previous.current = status;
    if (!before) return;
    const finished = finishedRuns(before, status);
    // New clips: lists already loaded (the first-run checklist's among them) are out of date.
    if (finished.length > 0) invalidateClipLists();
    for (const name of finished) {
      const count = status[name]?.clips_downloaded ?? 0;
      toast.success(`${plural(count, 'new clip')} from ${name}`, {
        id: `run-finished-${name}`,
        description: (
          <Link to={clipsOfStreamer(name)} className="font-medium underline underline-offset-2">
            View clips
          </Link>
        ),
      });
    }
  }, [status, invalidateClipLists]);
}
