import { CircleAlert, CircleCheck, Inbox, LoaderCircle, type LucideIcon } from 'lucide-react';
import { uploadStatusLabel, uploadStatusTone, type Clip, type StatusTone } from '@clipshift/shared';
import { StatusBadge } from '@/components/status-badge';

type PostedEntry = Clip['posted_to'][number];

/** Delivered uploads show where they went; anything still on its way turns. */
const TONE_ICON: Partial<Record<StatusTone, LucideIcon>> = {
  success: CircleCheck,
  info: Inbox,
  danger: CircleAlert,
};

function UploadBadge({ status }: { status: string }) {
  const tone = uploadStatusTone(status);
  const icon = TONE_ICON[tone];
  return <StatusBadge tone={tone} icon={icon ?? LoaderCircle} busy={icon === undefined} label={uploadStatusLabel(status)} />;
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
            <UploadBadge status={entry.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}
