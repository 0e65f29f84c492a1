import { Ban, CalendarClock, CircleAlert, CircleCheck, Inbox, LoaderCircle, type LucideIcon } from 'lucide-react';
import { uploadProgressLabel, uploadStatusTone, type Clip, type StatusTone } from '@clipshift/shared';
import { Progress } from '@/components/ui/progress';
import { StatusBadge } from '@/components/status-badge';

type PostedEntry = Clip['posted_to'][number];

/** Delivered uploads show where they went; anything still on its way turns. */
const TONE_ICON: Partial<Record<StatusTone, LucideIcon>> = {
  success: CircleCheck,
  info: Inbox,
  danger: CircleAlert,
};

/** Waiting for a posting slot, or taken off the queue: nothing turns. */
const STATUS_ICON: Partial<Record<string, LucideIcon>> = { scheduled: CalendarClock, canceled: Ban };

/** The upload's state; while the bytes go, with how much TikTok has received ("Uploading 42%"). */
function UploadBadge({ entry }: { entry: PostedEntry }) {
  const tone = uploadStatusTone(entry.status);
  const icon = STATUS_ICON[entry.status] ?? TONE_ICON[tone];
  return <StatusBadge tone={tone} icon={icon ?? LoaderCircle} busy={icon === undefined} label={uploadProgressLabel(entry)} />;
}

/** Where the clip has gone on TikTok: one line per account with the upload's state (queued → uploading % → processing → published). */
export function PostedTo({ entries }: { entries: readonly PostedEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="posted-to-heading" className="space-y-2">
      <h3 id="posted-to-heading" className="text-sm font-semibold">
        Posted to TikTok
      </h3>
      <ul className="divide-y rounded-lg border" aria-labelledby="posted-to-heading">
        {entries.map((entry) => (
          <li key={entry.account} className="space-y-1.5 px-3 py-2 text-sm" data-testid="posted-to-entry">
            <div className="flex items-center justify-between gap-3">
              <span className="truncate font-medium">{entry.account}</span>
              <UploadBadge entry={entry} />
            </div>
            {entry.status === 'uploading' && (
              <Progress value={entry.percent ?? 0} aria-label={`${entry.account}: ${uploadProgressLabel(entry)}`} className="h-1.5" />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
