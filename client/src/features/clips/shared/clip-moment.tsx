import { useId } from 'react';
import { MessageSquareText } from 'lucide-react';
import { momentScoreLabel, type ClipMoment as Moment } from '@clipshift/shared';
import { MomentReasons } from '@/components/moment-reasons';
import { cn } from '@/lib/utils';

/** Reasons shown before "Show all": the card stays compact. */
const VISIBLE_REASONS = 2;

/** A clip made of a live chat moment: "Chat moment · 82%" and why chat's reaction counted. */
export function ClipMoment({ moment, className }: { moment: Moment; className?: string }) {
  const labelId = useId();
  return (
    <section aria-labelledby={labelId} className={cn('space-y-1.5 rounded-lg border bg-muted/40 px-3 py-2.5', className)} data-testid="clip-moment">
      <h3 id={labelId} className="flex items-center gap-1.5 text-sm font-medium">
        <MessageSquareText className="size-4 text-brand-text" aria-hidden="true" />
        Chat moment · {momentScoreLabel(moment.score)}
      </h3>
      <MomentReasons reasons={moment.reasons} visible={VISIBLE_REASONS} className="text-muted-foreground" />
    </section>
  );
}
