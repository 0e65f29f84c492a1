import { useId } from 'react';
import { cn } from '@/lib/utils';
import { YOUTUBE_PRIVACY_HINTS, YOUTUBE_PRIVACY_LABELS, YOUTUBE_PRIVACY_STATUSES, type YouTubePrivacyStatus } from '@clipshift/shared';

interface YouTubePrivacyChoiceProps {
  privacy: YouTubePrivacyStatus | null;
  onChange: (privacy: YouTubePrivacyStatus) => void;
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
