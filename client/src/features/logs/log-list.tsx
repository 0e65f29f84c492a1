import { ChevronRight } from 'lucide-react';
import { LOG_LIST_MAX_HEIGHT_PX, type LogEntry } from '@clipshift/shared';
import { LogLevelBadge } from '@/components/log-level-badge';
import { formatLogTimestamp } from '@/lib/format';

function ExceptionDetails({ exception }: { exception: string }) {
  return (
    <details className="group mt-2">
      <summary className="inline-flex cursor-pointer items-center gap-1 text-xs font-medium text-muted-foreground select-none hover:text-foreground [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-3.5 transition-transform group-open:rotate-90" aria-hidden="true" />
        Exception
      </summary>
      <pre className="mt-2 max-h-64 overflow-auto rounded-md bg-code p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-code-foreground">
        {exception}
      </pre>
    </details>
  );
}

function LogRow({ entry }: { entry: LogEntry }) {
  return (
    <li className="grid gap-x-4 gap-y-1.5 px-4 py-3 text-sm leading-6 sm:grid-cols-[10.5rem_5rem_minmax(0,1fr)]" data-testid="log-entry">
      <time dateTime={entry.timestamp} className="font-mono text-xs leading-6 text-muted-foreground tabular-nums">
        {formatLogTimestamp(entry.timestamp)}
      </time>
      <div className="flex h-6 items-center">
        <LogLevelBadge level={entry.level} />
      </div>
      <div className="min-w-0">
        <p className="break-words">
          <span className="mr-2 font-mono text-xs font-medium text-brand-text">{entry.logger}</span>
          {entry.message}
        </p>
        {entry.exception && <ExceptionDetails exception={entry.exception} />}
      </div>
    </li>
  );
}

/** Scrolls within 600 px so a long log never pushes the page controls away. */
export function LogList({ entries }: { entries: readonly LogEntry[] }) {
  return (
    // Focusable, so a keyboard can scroll it too.
    <ul
      // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- a scrolling region must be focusable for keyboard scrolling (axe's scrollable-region-focusable).
      tabIndex={0}
      className="divide-y overflow-y-auto rounded-lg border outline-none focus-visible:ring-2 focus-visible:ring-ring/50"
      style={{ maxHeight: LOG_LIST_MAX_HEIGHT_PX }}
      aria-label="Log entries"
    >
      {entries.map((entry) => (
        <LogRow key={entry.id} entry={entry} />
      ))}
    </ul>
  );
}
