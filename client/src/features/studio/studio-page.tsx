import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ArrowLeft, Clapperboard, Film } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { LoadingView } from '@/components/loading-view';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { clipMessages } from '@/api/clips';
import { loadFailureDescription } from '@/api/errors';
import { streamerTitle } from '@/api/streamers';
import { useFreshClipDetails } from '@/api/clips';
import { useStreamerStudio } from '@/api/studio';
import { paths, STUDIO_CLIP_PARAM } from '@/lib/paths';
import { StudioEditor } from './studio-editor';

function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 text-muted-foreground">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}

interface StudioScreenProps {
  /** The clip whose frame is drawn on (and, in clip mode, whose settings are edited). */
  clipId: string;
  /** Set: the streamer's defaults are edited, drawn on the clip. */
  streamerName: string | null;
}

function StudioScreen({ clipId, streamerName }: StudioScreenProps) {
  const details = useFreshClipDetails(clipId);
  const clip = details.data;
  const owner = useStreamerStudio(streamerName ?? clip?.streamer ?? null);
  const back = streamerName ? { to: paths.app.streamers, label: 'Streamers' } : { to: paths.app.clips, label: 'Clips' };

  if (details.isError && !clip) {
    return (
      <div className="space-y-4">
        <BackLink {...back} />
        <LoadFailed icon={Film} title={clipMessages.detailsFailed} description={loadFailureDescription(details.error)} onRetry={() => void details.refetch()} />
      </div>
    );
  }
  if (!clip || owner.loading) return <LoadingView />;
  if (streamerName && !owner.streamer) {
    return (
      <div className="space-y-4">
        <BackLink {...back} />
        <EmptyState icon={Clapperboard} title="Streamer not found" description={`No streamer named ${streamerName} is registered.`} />
      </div>
    );
  }

  const mode = streamerName ? 'streamer' : 'clip';
  const shownName = owner.streamer ? streamerTitle(owner.streamer) : clip.broadcaster_name;
  const header = (actions: ReactNode) => (
    <div className="space-y-2">
      <BackLink {...back} />
      <PageHeader
        title="Studio"
        description={
          mode === 'clip' ? (
            <>
              <span className="font-medium text-foreground">{clip.title}</span> · {shownName}
            </>
          ) : (
            <>
              Defaults for <span className="font-medium text-foreground">{shownName}</span>, drawn on “{clip.title}”
            </>
          )
        }
        actions={actions}
      />
    </div>
  );
  // Keyed by what is edited: another clip or streamer starts from its own saved settings.
  return <StudioEditor key={`${mode}:${clip.clip_id}:${streamerName ?? ''}`} mode={mode} clip={clip} streamerName={owner.streamer?.name ?? clip.streamer} streamerTitle={shownName} streamer={owner.defaults} header={header} />;
}

/**
 * /app/clips/:clipId/studio edits one clip; /app/streamers/:name/studio?clip=… edits the
 * streamer's defaults on one of its clips' frames.
 */
export function StudioPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const clipId = params.clipId ?? search.get(STUDIO_CLIP_PARAM);
  const streamerName = params.name ?? null;
  if (!clipId) {
    return (
      <div className="space-y-4">
        <BackLink to={paths.app.streamers} label="Streamers" />
        <EmptyState
          icon={Clapperboard}
          title="Choose a clip to draw on"
          description="Open the streamer's settings and pick one of its clips under “Set layout and captions from a clip…”."
        />
      </div>
    );
  }
  return <StudioScreen key={`${clipId}:${streamerName ?? ''}`} clipId={clipId} streamerName={streamerName} />;
}
