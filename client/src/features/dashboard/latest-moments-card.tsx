import { Link } from 'react-router-dom';
import { ArrowRight, MessageSquareText } from 'lucide-react';
import { momentScoreLabel, type Streamer } from '@clipshift/shared';
import { useMoments } from '@/api/moments';
import { MomentStatusBadge } from '@/components/moment-status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { timeAgo } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useNow } from '@/lib/use-now';

const LATEST = 3;
/** The dashboard is not where moments are watched as they arrive: a slower poll than the Moments screen's. */
const DASHBOARD_MOMENTS_POLL_MS = 30_000;
const AGE_TICK_MS = 30_000;

/**
 * The newest few moments, with the way to the Moments screen. Shown once there is something to say:
 * a moment found, or a streamer whose chat is watched.
 */
export function LatestMomentsCard({ streamers }: { streamers: readonly Streamer[] | undefined }) {
  const watching = streamers?.some((streamer) => streamer.watch_live) ?? false;
  const moments = useMoments({ limit: LATEST }, { pollMs: DASHBOARD_MOMENTS_POLL_MS }).data ?? [];
  const now = useNow(AGE_TICK_MS);
  if (!watching && moments.length === 0) return null;
  return (
    <Card role="region" aria-labelledby="dashboard-moments-title">
      <CardHeader>
        <CardTitle id="dashboard-moments-title" className="flex items-center gap-2">
          <MessageSquareText className="size-4 text-brand-text" aria-hidden="true" /> Latest moments
        </CardTitle>
        <CardDescription>What live chat reacted to in the streams Clipshift watches.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {moments.length === 0 ? (
          <p className="text-sm text-muted-foreground">No moments yet: they show up here while a watched streamer is live.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Latest moments">
            {moments.map((moment) => (
              <li key={moment.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm">
                <span className="min-w-0 truncate font-medium">{moment.streamer}</span>
                <span className="flex items-center gap-1.5 text-muted-foreground">
                  {timeAgo(moment.detected_at, now)}
                  <Badge variant="brand" className="tabular-nums">
                    {momentScoreLabel(moment.score)}
                  </Badge>
                  <MomentStatusBadge status={moment.status} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Button asChild variant="outline" size="sm">
          <Link to={paths.app.moments}>
            Open Moments <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
