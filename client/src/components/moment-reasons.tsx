import { useId, useState } from 'react';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

interface MomentReasonsProps {
  reasons: readonly string[];
  /** How many show before "Show all"; every reason shows when there are no more than this. */
  visible?: number;
  className?: string;
}

/** Why chat's reaction counted as a moment, one plain sentence per line; a long list folds. */
export function MomentReasons({ reasons, visible = reasons.length, className }: MomentReasonsProps) {
  const listId = useId();
  const [expanded, setExpanded] = useState(false);
  const folds = reasons.length > visible;
  const shown = folds && !expanded ? reasons.slice(0, visible) : reasons;
  if (reasons.length === 0) return null;
  return (
    <div className={cn('space-y-1', className)}>
      <ul id={listId} className="list-disc space-y-0.5 pl-5 text-sm break-words marker:text-muted-foreground" data-testid="moment-reasons">
        {shown.map((reason, index) => (
          <li key={index}>{reason}</li>
        ))}
      </ul>
      {folds && (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-auto px-0 text-xs"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
          {expanded ? 'Show fewer reasons' : `Show all ${reasons.length} reasons`}
        </Button>
      )}
    </div>
  );
}
