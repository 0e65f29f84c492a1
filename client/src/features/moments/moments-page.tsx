import { Link, useSearchParams } from 'react-router-dom';
import { MessageSquareText, Plug } from 'lucide-react';
import { CONNECT_TWITCH_FOR_MOMENTS, type Moment } from '@clipshift/shared';
import { loadFailureDescription } from '@/api/errors';
import { momentMessages, useClipIdsInReview, useMoments } from '@/api/moments';
import { streamerTitle, useStreamerList } from '@/api/streamers';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { paths, TWITCH_SETTINGS_PATH } from '@/lib/paths';
import { useNow } from '@/lib/use-now';
import { MomentCard } from './moment-card';
import { waitsForTwitch } from './moment-text';

/** Radix Select values cannot be empty, so "every streamer" has a value of its own. */
const ALL_STREAMERS = '__all__';
const STREAMER_PARAM = 'streamer';
/** "3 min ago" ages on screen between polls. */
const CLOCK_MS = 30_000;

/** The streamer filter lives in the address, so a moment list of one streamer can be linked and reloaded. */
function useStreamerFilter() {
  const [searchParams, setSearchParams] = useSearchParams();
  const streamer = searchParams.get(STREAMER_PARAM) ?? '';
  const setStreamer = (name: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (name) next.set(STREAMER_PARAM, name);
        else next.delete(STREAMER_PARAM);
        return next;
      },
      { replace: true },
    );
  return [streamer, setStreamer] as const;
}

function StreamerFilter({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const streamers = useStreamerList().data ?? [];
  // A streamer deleted since can still be the filter of a linked address.
  const known = value === '' || streamers.some((streamer) => streamer.name === value);
  return (
    <Select value={value || ALL_STREAMERS} onValueChange={(next) => onChange(next === ALL_STREAMERS ? '' : next)}>
      <SelectTrigger aria-label="Filter by streamer" className="w-full sm:w-56">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL_STREAMERS}>All Streamers</SelectItem>
        {streamers.map((streamer) => (
          <SelectItem key={streamer.name} value={streamer.name}>
            {streamerTitle(streamer)}
          </SelectItem>
        ))}
        {!known && <SelectItem value={value}>{value}</SelectItem>}
      </SelectContent>
    </Select>
  );
}

/** Moments wait, unclipped, until the user connects a Twitch account: said once, above the list. */
function ConnectTwitchBanner() {
  return (
    <Alert variant="info" role="status" className="flex-col gap-3 sm:flex-row sm:items-center sm:justify-between" data-testid="connect-twitch-banner">
      <div className="flex items-start gap-3">
        <Plug className="mt-0.5 size-4 shrink-0 text-brand-text" aria-hidden="true" />
        <div className="space-y-0.5">
          <p className="font-medium">{CONNECT_TWITCH_FOR_MOMENTS}</p>
          <p className="text-muted-foreground">Clips are made with your own Twitch account; the moments found meanwhile wait here.</p>
        </div>
      </div>
      <Button asChild variant="brand" size="sm" className="shrink-0">
        <Link to={TWITCH_SETTINGS_PATH}>Open Twitch settings</Link>
      </Button>
    </Alert>
  );
}

function NoMoments({ streamer }: { streamer: string }) {
  return (
    <EmptyState
      icon={MessageSquareText}
      titleLevel={2}
      title={streamer ? `No moments of ${streamer} yet` : 'No moments yet'}
      description={
        <>
          Turn on “Watch live chat for moments” in a streamer’s settings. While the streamer is live, Clipshift reads the public chat and clips what
          it reacts to; the moments it finds show up here.
        </>
      }
      action={
        <Button asChild variant="outline">
          <Link to={paths.app.streamers}>Open Streamers</Link>
        </Button>
      }
    />
  );
}

function MomentList({ moments }: { moments: readonly Moment[] }) {
  const now = useNow(CLOCK_MS);
  const clipped = moments.some((moment) => moment.status === 'clipped' && moment.clip_id);
  const inReview = useClipIdsInReview(clipped);
  return (
    <ul className="space-y-3" aria-label="Moments">
      {moments.map((moment) => (
        <MomentCard key={moment.id} moment={moment} now={now} inReview={moment.clip_id !== null && inReview.has(moment.clip_id)} />
      ))}
    </ul>
  );
}

/** The moments chat showed in the watched streamers' live streams, newest first, as they arrive. */
export function MomentsPage() {
  const [streamer, setStreamer] = useStreamerFilter();
  const query = useMoments(streamer ? { streamer } : {});
  const moments = query.data;
  return (
    <>
      <PageHeader
        title="Moments"
        description="What live chat reacted to in your streamers’ streams, newest first, and the clips made of it."
        actions={<StreamerFilter value={streamer} onChange={setStreamer} />}
      />
      <div className="space-y-4">
        {moments?.some(waitsForTwitch) && <ConnectTwitchBanner />}
        {query.isPending ? (
          <div className="space-y-3" aria-hidden="true">
            <Skeleton className="h-32 w-full" />
            <Skeleton className="h-32 w-full" />
          </div>
        ) : query.isError && !moments ? (
          <LoadFailed icon={MessageSquareText} title={momentMessages.loadFailed} description={loadFailureDescription(query.error)} onRetry={() => void query.refetch()} />
        ) : moments && moments.length > 0 ? (
          <MomentList moments={moments} />
        ) : (
          <NoMoments streamer={streamer} />
        )}
      </div>
    </>
  );
}
