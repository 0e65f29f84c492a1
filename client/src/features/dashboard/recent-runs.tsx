import { useId, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import type { NamedRun } from './run-groups';

/** "3 min ago" is exact to the minute: a tick a little more often keeps it from lagging. */
const AGE_TICK_MS = 15_000;

interface RecentRunsProps {
  runs: readonly NamedRun[];
  /** One entry, told how long ago its run ended by the shared clock. */
  renderRun: (run: NamedRun, now: number) => ReactNode;
}

/** Runs that have ended, behind a disclosure that starts closed: what is running comes first. */
export function RecentRuns({ runs, renderRun }: RecentRunsProps) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const now = useNow(AGE_TICK_MS);
  return (
    <div className="space-y-3">
      <Button
        variant="ghost"
        size="sm"
        className="-ml-3 text-sm"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((current) => !current)}
      >
        <ChevronDown className={cn('transition-transform', !open && '-rotate-90')} aria-hidden="true" />
        Recent runs ({runs.length})
      </Button>
      {open && (
        <ul id={listId} className="grid gap-3 md:grid-cols-2" aria-label="Recent runs">
          {runs.map((run) => renderRun(run, now))}
        </ul>
      )}
    </div>
  );
}
