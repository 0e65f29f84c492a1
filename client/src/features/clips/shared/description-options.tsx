import { Sparkles } from 'lucide-react';
import { rankPercent, type DescriptionOptionDto } from '@clipshift/shared';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

interface DescriptionOptionsProps {
  /** Highest rank first, as the server lists them: the indexes are the ones it stores. */
  options: readonly DescriptionOptionDto[];
  selectedIndex: number;
  onChoose: (index: number) => void;
}

/** The ranked suggestions; the top one is the Best Match (spec section 5). */
export function DescriptionOptions({ options, selectedIndex, onChoose }: DescriptionOptionsProps) {
  if (options.length === 0) {
    return <p className="text-sm text-muted-foreground">No suggestions for this clip yet. Write your own below.</p>;
  }
  return (
    <ul aria-label="Description suggestions" className="space-y-2">
      {options.map((option, index) => {
        const selected = index === selectedIndex;
        return (
          <li key={index}>
            <button
              type="button"
              aria-pressed={selected}
              onClick={() => onChoose(index)}
              className={cn(
                'w-full cursor-pointer rounded-lg border px-3 py-2.5 text-left text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring/50',
                selected ? 'border-brand bg-brand-soft' : 'hover:bg-accent/60',
              )}
            >
              <span className="mb-1 flex items-center gap-2">
                {index === 0 && (
                  <Badge variant="brand" className="bg-brand text-brand-foreground">
                    <Sparkles aria-hidden="true" />
                    Best Match
                  </Badge>
                )}
                <span className="text-xs text-muted-foreground">
                  <span className="font-medium tabular-nums" data-testid="rank">
                    {rankPercent(option.rank)}
                  </span>{' '}
                  match
                </span>
                {selected && <span className="ml-auto text-xs font-medium text-brand-text">Selected</span>}
              </span>
              <span className="block break-words whitespace-pre-wrap">{option.description}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
