import { useId } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { YOUTUBE_TITLE_MAX } from './preflight';
import { YOUTUBE_PRIVACY_HINTS, YOUTUBE_PRIVACY_LABELS, YOUTUBE_PRIVACY_STATUSES } from '@clipshift/shared';
import type { YouTubePrivacy } from './wizard-rules';

interface YouTubeOptionsProps {
  title: string;
  titleProblem: string | null;
  onTitleChange: (title: string) => void;
  privacy: YouTubePrivacy | null;
  onPrivacyChange: (privacy: YouTubePrivacy) => void;
}

/** YouTube's own options: the Short's title (100 characters at most) and who may watch it (no default). */
export function YouTubeOptions({ title, titleProblem, onTitleChange, privacy, onPrivacyChange }: YouTubeOptionsProps) {
  const id = useId();
  return (
    <fieldset className="min-w-0 space-y-4 rounded-lg border p-3" data-testid="youtube-options">
      <legend className="px-1 text-sm font-medium">YouTube</legend>
      <div className="space-y-2">
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={`${id}-title`}>Title</Label>
          <span className={cn('text-xs tabular-nums', title.length > YOUTUBE_TITLE_MAX ? 'text-danger-soft-foreground' : 'text-muted-foreground')} data-testid="youtube-title-counter">
            {title.length}/{YOUTUBE_TITLE_MAX}
          </span>
        </div>
        <Input
          id={`${id}-title`}
          value={title}
          onChange={(event) => onTitleChange(event.target.value)}
          aria-invalid={titleProblem !== null || undefined}
          aria-describedby={titleProblem ? `${id}-title-error` : undefined}
        />
        {titleProblem && (
          <p id={`${id}-title-error`} className="text-xs text-danger-soft-foreground">
            {titleProblem}
          </p>
        )}
      </div>
      <YouTubePrivacyChoice privacy={privacy} onChange={onPrivacyChange} />
    </fieldset>
  );
}

interface YouTubePrivacyChoiceProps {
  privacy: YouTubePrivacy | null;
  onChange: (privacy: YouTubePrivacy) => void;
  disabled?: boolean;
}

/** Private, unlisted or public, as radio cards; nothing is chosen for the user. */
export function YouTubePrivacyChoice({ privacy, onChange, disabled = false }: YouTubePrivacyChoiceProps) {
  const id = useId();
  return (
    <div role="radiogroup" aria-labelledby={`${id}-privacy`} aria-required="true" className="space-y-2">
        <p id={`${id}-privacy`} className="text-sm font-medium">
          Who can watch on YouTube
        </p>
        <div className="grid gap-2 sm:grid-cols-3">
          {YOUTUBE_PRIVACY_STATUSES.map((option) => (
            <label
              key={option}
              className={cn(
                'flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm transition-colors hover:bg-accent/60',
                privacy === option && 'border-brand bg-brand-soft',
              )}
            >
              <input
                type="radio"
                name={`${id}-privacy`}
                value={option}
                checked={privacy === option}
                disabled={disabled}
                onChange={() => onChange(option)}
                className="mt-0.5 accent-[var(--color-brand)]"
              />
              <span className="flex flex-col">
                <span className="font-medium">{YOUTUBE_PRIVACY_LABELS[option]}</span>
                <span className="text-xs text-muted-foreground">{YOUTUBE_PRIVACY_HINTS[option]}</span>
              </span>
            </label>
          ))}
        </div>
        {privacy === null && <p className="text-xs text-muted-foreground">Required: nothing is chosen for you.</p>}
      </div>
  );
}
