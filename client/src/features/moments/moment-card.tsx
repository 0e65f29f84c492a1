import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Clapperboard, Inbox } from 'lucide-react';
import { momentScoreLabel, type Moment } from '@clipshift/shared';
import { MomentReasons } from '@/components/moment-reasons';
import { MomentStatusBadge } from '@/components/moment-status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { formatDateTime, timeAgo } from '@/lib/format';
import { clipDetailsPath, reviewClipPath } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { momentStatusNote, streamOffsetText } from './moment-text';

/** A clipped moment's clip: in the review inbox while it waits there, otherwise its details in the library. */
function ClipLink({ clipId, inReview }: { clipId: string; inReview: boolean }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={inReview ? reviewClipPath(clipId) : clipDetailsPath(clipId)} data-testid="moment-clip-link">
        {inReview ? <Inbox aria-hidden="true" /> : <Clapperboard aria-hidden="true" />}
        {inReview ? 'Review clip' : 'Open clip'}
      </Link>
    </Button>
  );
}

interface MomentCardProps {
  moment: Moment;
  now: number;
  /** The moment's clip waits in the review inbox. */
  inReview: boolean;
}

/** One moment: whose stream, when and where in it, how strong, why, and what became of it. */
export function MomentCard({ moment, now, inReview }: MomentCardProps) {
  const titleId = useId();
  const note = momentStatusNote(moment);
  return (
    <li aria-labelledby={titleId} data-testid="moment" data-moment-id={moment.id}>
      <Card className="gap-3 py-4">
        <CardContent className="space-y-3 px-4 sm:px-5">
          <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
            <div className="min-w-0 space-y-0.5">
              <h2 id={titleId} className="truncate text-base font-semibold">
                {moment.streamer}
              </h2>
              <p className="text-sm text-muted-foreground">
                <time dateTime={moment.detected_at} title={formatDateTime(moment.detected_at)}>
                  {timeAgo(moment.detected_at, now)}
                </time>
                {' · '}
                <span data-testid="moment-offset">{streamOffsetText(moment.stream_offset)}</span>
              </p>
            </div>
            <div className="flex shrink-0 items-center gap-1.5">
              <Badge variant="brand" className="tabular-nums" data-testid="moment-score">
                <span className="sr-only">Score </span>
                {momentScoreLabel(moment.score)}
              </Badge>
              <MomentStatusBadge status={moment.status} />
            </div>
          </div>
          <MomentReasons reasons={moment.reasons} visible={4} />
          {(note || moment.clip_id) && (
            <div className="flex flex-wrap items-center justify-between gap-2">
              {note && (
                <p
                  className={cn('text-sm break-words', moment.status === 'failed' ? 'text-destructive' : 'text-muted-foreground')}
                  data-testid="moment-note"
                >
                  {note}
                </p>
              )}
              {moment.clip_id && moment.status === 'clipped' && <ClipLink clipId={moment.clip_id} inReview={inReview} />}
            </div>
          )}
        </CardContent>
      </Card>
    </li>
  );
}
