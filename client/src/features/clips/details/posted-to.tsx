import { Ban, CalendarClock, CircleAlert, CircleCheck, ExternalLink, Inbox, LoaderCircle, type LucideIcon } from 'lucide-react';
import { PLATFORM_LABELS, uploadProgressLabel, uploadStatusTone, type Clip, type StatusTone } from '@clipshift/shared';
import { PlatformIcon } from '@/components/platform-icon';
import { Progress } from '@/components/ui/progress';
import { StatusBadge } from '@/components/status-badge';
import { timeAgo } from '@/lib/format';
import { formatCount } from '@/lib/stats-format';
import { useNow } from '@/lib/use-now';

type PostedEntry = Clip['posted_to'][number];

/** Delivered uploads show where they went; anything still on its way turns. */
const TONE_ICON: Partial<Record<StatusTone, LucideIcon>> = {
  success: CircleCheck,
  info: Inbox,
  danger: CircleAlert,
};

/** Waiting for a posting slot, or taken off the queue: nothing turns. */
const STATUS_ICON: Partial<Record<string, LucideIcon>> = { scheduled: CalendarClock, canceled: Ban };

/** The upload's state; while the bytes go, with how much the platform has received ("Uploading 42%"). */
function UploadBadge({ entry }: { entry: PostedEntry }) {
  const tone = uploadStatusTone(entry.status);
  const icon = STATUS_ICON[entry.status] ?? TONE_ICON[tone];
  return <StatusBadge tone={tone} icon={icon ?? LoaderCircle} busy={icon === undefined} label={uploadProgressLabel(entry)} />;
}

/**
 * The public address of a post once its id is known: a Short at youtube.com/shorts/{id}; a Page's
 * Reel at facebook.com/reel/{id}; a TikTok video at tiktok.com/@user/video/{id} when the account's
 * handle is known (its label is "@user"). An Instagram media id is not the code in a Reel's
 * address, so an Instagram post has no link.
 */
export function postUrl(entry: Pick<PostedEntry, 'platform' | 'external_id' | 'account'>): string | null {
  const id = entry.external_id;
  if (!id) return null;
  switch (entry.platform) {
    case 'youtube':
      return `https://www.youtube.com/shorts/${encodeURIComponent(id)}`;
    case 'facebook':
      return `https://www.facebook.com/reel/${encodeURIComponent(id)}`;
    case 'instagram':
      return null;
    case 'tiktok': {
      const handle = /^@([\w.]+)$/.exec(entry.account)?.[1];
      return handle ? `https://www.tiktok.com/@${handle}/video/${encodeURIComponent(id)}` : null;
    }
  }
}

function PostStats({ stats, now }: { stats: NonNullable<PostedEntry['stats']>; now: number }) {
  const counts: [string, number | null][] = [
    ['views', stats.views],
    ['likes', stats.likes],
    ['comments', stats.comments],
    ['shares', stats.shares],
  ];
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs text-muted-foreground" data-testid="post-stats">
      {counts.map(([label, value]) =>
        value === null ? null : (
          <span key={label} title={value.toLocaleString('en-US')}>
            <span className="font-medium text-foreground tabular-nums">{formatCount(value)}</span> {label}
          </span>
        ),
      )}
      <span>
        · updated <time dateTime={stats.fetched_at}>{timeAgo(stats.fetched_at, now)}</time>
      </span>
    </p>
  );
}

/** Where the clip has gone: one line per account with its platform, the upload's state, the post's link and its counts. */
export function PostedTo({ entries }: { entries: readonly PostedEntry[] }) {
  const now = useNow(60_000);
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="posted-to-heading" className="space-y-2">
      <h3 id="posted-to-heading" className="text-sm font-semibold">
        Posted to
      </h3>
      <ul className="divide-y rounded-lg border" aria-labelledby="posted-to-heading">
        {entries.map((entry) => {
          const platform = entry.platform ?? 'tiktok';
          const url = postUrl(entry);
          return (
            <li key={`${platform}-${entry.account}`} className="space-y-1.5 px-3 py-2 text-sm" data-testid="posted-to-entry" data-platform={platform}>
              <div className="flex items-center justify-between gap-3">
                <span className="flex min-w-0 items-center gap-2">
                  <PlatformIcon platform={platform} />
                  <span className="truncate font-medium">{entry.account}</span>
                  {url && (
                    <a
                      href={url}
                      target="_blank"
                      rel="noreferrer noopener"
                      aria-label={`View on ${PLATFORM_LABELS[platform]}: ${entry.account}`}
                      className="inline-flex shrink-0 items-center gap-1 text-xs font-medium text-brand-text underline-offset-4 hover:underline"
                    >
                      View on {PLATFORM_LABELS[platform]}
                      <ExternalLink className="size-3" aria-hidden="true" />
                    </a>
                  )}
                </span>
                <UploadBadge entry={entry} />
              </div>
              {entry.status === 'uploading' && (
                <Progress value={entry.percent ?? 0} aria-label={`${entry.account}: ${uploadProgressLabel(entry)}`} className="h-1.5" />
              )}
              {entry.warning && (
                <p className="flex items-start gap-1.5 text-xs text-warning-soft-foreground" data-testid="posted-to-warning">
                  <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                  {entry.warning}
                </p>
              )}
              {entry.stats && <PostStats stats={entry.stats} now={now} />}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
