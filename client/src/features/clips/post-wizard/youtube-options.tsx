import { useId } from 'react';
import { PlatformIcon } from '@/components/platform-icon';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { YOUTUBE_TITLE_MAX } from './preflight';
import type { YouTubePrivacy } from './wizard-rules';
import { YouTubePrivacyChoice } from '../shared/youtube-privacy-choice';

interface YouTubeOptionsProps {
  title: string;
  titleProblem: string | null;
  onTitleChange: (title: string) => void;
  privacy: YouTubePrivacy | null;
  onPrivacyChange: (privacy: YouTubePrivacy) => void;
  notifySubscribers: boolean;
  onNotifySubscribersChange: (notify: boolean) => void;
}

/** YouTube's own options: the Short's title (100 characters at most), who may watch it (no default) and whether subscribers hear of it (off by default). */
export function YouTubeOptions({ title, titleProblem, onTitleChange, privacy, onPrivacyChange, notifySubscribers, onNotifySubscribersChange }: YouTubeOptionsProps) {
  const id = useId();
  return (
    <fieldset className="min-w-0 space-y-4 rounded-lg border p-3" data-testid="youtube-options">
      <legend className="flex items-center gap-1.5 px-1 text-sm font-medium">
        <PlatformIcon platform="youtube" decorative />
        YouTube
      </legend>
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
      <div className="flex items-center gap-2">
        <Checkbox id={`${id}-notify`} checked={notifySubscribers} onCheckedChange={(next) => onNotifySubscribersChange(next === true)} />
        <Label htmlFor={`${id}-notify`}>Notify subscribers</Label>
      </div>
    </fieldset>
  );
}
