import { useId } from 'react';
import { CircleCheck, Hash, LoaderCircle } from 'lucide-react';
import { DESCRIPTION_MAX_LENGTH, descriptionStats } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';

/** The spec's advice: 3 to 5 hashtags. */
const HASHTAGS_MIN = 3;
const HASHTAGS_MAX = 5;

function HashtagTip({ count }: { count: number }) {
  const good = count >= HASHTAGS_MIN && count <= HASHTAGS_MAX;
  const advice = good
    ? 'Good: 3 to 5 hashtags help people find your clip.'
    : count < HASHTAGS_MIN
      ? 'Tip: add 3 to 5 hashtags so people find your clip.'
      : 'Tip: 3 to 5 hashtags work best; fewer, more specific ones stand out.';
  return (
    <p className={cn('flex items-start gap-1.5 text-xs', good ? 'text-success-soft-foreground' : 'text-muted-foreground')}>
      {good ? <CircleCheck className="mt-px size-3.5 shrink-0" aria-hidden="true" /> : <Hash className="mt-px size-3.5 shrink-0" aria-hidden="true" />}
      {/* One run of text, so a narrow screen wraps the advice and never the count. */}
      <span>
        <span data-testid="hashtag-count" className="whitespace-nowrap">
          {count} {count === 1 ? 'hashtag' : 'hashtags'}
        </span>
        <span aria-hidden="true"> · </span>
        {advice}
      </span>
    </p>
  );
}

interface DescriptionEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Shows a Save description button (the details modal); the post wizard keeps the text to itself. */
  onSave?: () => void;
  saving?: boolean;
  label?: string;
  rows?: number;
}

/** The custom description with its 2200-character counter; over the limit it cannot be saved. */
export function DescriptionEditor({ value, onChange, onSave, saving = false, label = 'Custom description', rows = 5 }: DescriptionEditorProps) {
  const id = useId();
  const counterId = `${id}-counter`;
  const { characters, hashtags } = descriptionStats(value);
  const over = characters > DESCRIPTION_MAX_LENGTH;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder="Write a description, or pick a suggestion above…"
        aria-invalid={over || undefined}
        aria-describedby={counterId}
        className="resize-y"
      />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <HashtagTip count={hashtags} />
        <span
          id={counterId}
          data-testid="description-counter"
          data-over={over || undefined}
          className={cn('shrink-0 text-xs tabular-nums', over ? 'font-semibold text-destructive' : 'text-muted-foreground')}
        >
          {characters} / {DESCRIPTION_MAX_LENGTH}
          {over && <span className="sr-only"> (too long)</span>}
        </span>
      </div>
      {over && <p className="text-xs text-destructive">Descriptions can be at most {DESCRIPTION_MAX_LENGTH} characters.</p>}
      {onSave && (
        <div className="flex justify-end">
          <Button size="sm" variant="brand" onClick={onSave} disabled={over || saving}>
            {saving && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            Save description
          </Button>
        </div>
      )}
    </div>
  );
}
