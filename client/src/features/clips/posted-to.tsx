import { CircleAlert, CircleCheck, Inbox, LoaderCircle, type LucideIcon } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { POST_STATUS_LABELS } from './tiktok-posting';

type PostedEntry = Clip['posted_to'][number];

interface StatusLook {
  variant: BadgeProps['variant'];
  icon: LucideIcon;
  /** Still on its way: the icon turns. */
  busy?: boolean;
}

const LOOKS: Record<string, StatusLook> = {
  published: { variant: 'success', icon: CircleCheck },
  sent_to_inbox: { variant: 'info', icon: Inbox },
  failed: { variant: 'destructive', icon: CircleAlert },
};
const IN_PROGRESS: StatusLook = { variant: 'muted', icon: LoaderCircle, busy: true };

function StatusBadge({ status }: { status: string }) {
  const look = LOOKS[status] ?? IN_PROGRESS;
  const Icon = look.icon;
  return (
    <Badge variant={look.variant}>
      <Icon className={look.busy ? 'animate-spin' : undefined} aria-hidden="true" />
      {POST_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

/** Where the clip has gone on TikTok: one line per account with the upload's state. */
export function PostedTo({ entries }: { entries: readonly PostedEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="posted-to-heading" className="space-y-2">
      <h3 id="posted-to-heading" className="text-sm font-semibold">
        Posted to TikTok
      </h3>
      <ul className="divide-y rounded-lg border" aria-labelledby="posted-to-heading">
        {entries.map((entry) => (
          <li key={entry.account} className="flex items-center justify-between gap-3 px-3 py-2 text-sm" data-testid="posted-to-entry">
            <span className="truncate font-medium">{entry.account}</span>
            <StatusBadge status={entry.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}
