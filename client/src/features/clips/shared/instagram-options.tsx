import { useId } from 'react';
import { INSTAGRAM_MAX_COLLABORATORS, type InstagramPostOptions } from '@clipshift/shared';
import { ChipsInput, useChips } from '@/components/chips-input';
import { PlatformIcon } from '@/components/platform-icon';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import { addCollaborators } from './instagram-posting';

interface SwitchLineProps {
  id: string;
  label: string;
  description: string;
  checked: boolean;
  disabled?: boolean;
  onCheckedChange: (checked: boolean) => void;
}

function SwitchLine({ id, label, description, checked, disabled, onCheckedChange }: SwitchLineProps) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0 space-y-0.5">
        <Label htmlFor={id} className="cursor-pointer">
          {label}
        </Label>
        <p id={`${id}-description`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} checked={checked} disabled={disabled} onCheckedChange={onCheckedChange} aria-describedby={`${id}-description`} className="mt-0.5" />
    </div>
  );
}

interface InstagramOptionsProps {
  value: InstagramPostOptions;
  onChange: (value: InstagramPostOptions) => void;
  disabled?: boolean;
  /** A fieldset with its own border and legend (the wizard), or lines in the caller's box (the review inbox). */
  framed?: boolean;
}

/**
 * Instagram's Reels options: also shared to the feed (on unless turned off), a trial Reel (off), and
 * up to three collaborators invited as co-authors. Reels have no privacy choice: they are public.
 */
export function InstagramOptions({ value, onChange, disabled = false, framed = true }: InstagramOptionsProps) {
  const id = useId();
  const chips = useChips({ items: value.collaborators, onChange: (collaborators) => onChange({ ...value, collaborators }), add: addCollaborators });
  const problemId = `${id}-collaborators-problem`;
  return (
    <fieldset className={cn('min-w-0 space-y-4', framed && 'rounded-lg border p-3')} data-testid="instagram-options" disabled={disabled}>
      <legend className={cn('flex items-center gap-1.5 text-sm font-medium', framed ? 'px-1' : 'mb-2')}>
        <PlatformIcon platform="instagram" decorative />
        Instagram
      </legend>
      <SwitchLine
        id={`${id}-feed`}
        label="Also share to feed"
        description="The Reel shows in your profile grid and your followers’ feeds, not only in the Reels tab."
        checked={value.share_to_feed}
        disabled={disabled}
        onCheckedChange={(share_to_feed) => onChange({ ...value, share_to_feed })}
      />
      <SwitchLine
        id={`${id}-trial`}
        label="Trial reel"
        description="Shown to people who don’t follow you first; Instagram shares it with your followers if it does well."
        checked={value.trial_reel}
        disabled={disabled}
        onCheckedChange={(trial_reel) => onChange({ ...value, trial_reel })}
      />
      <div className="space-y-2">
        <Label htmlFor={`${id}-collaborators`}>Collaborators</Label>
        <ChipsInput
          id={`${id}-collaborators`}
          chips={chips}
          items={value.collaborators}
          listLabel="Collaborators"
          max={INSTAGRAM_MAX_COLLABORATORS}
          placeholder="Instagram username"
          spellCheck={false}
          autoCapitalize="none"
          disabled={disabled}
          aria-invalid={chips.problem ? true : undefined}
          aria-describedby={chips.problem ? problemId : `${id}-collaborators-hint`}
        />
        {chips.problem ? (
          <p id={problemId} className="text-xs text-danger-soft-foreground" data-testid="collaborators-problem">
            {chips.problem}
          </p>
        ) : (
          <p id={`${id}-collaborators-hint`} className="text-xs text-muted-foreground">
            Up to {INSTAGRAM_MAX_COLLABORATORS} accounts invited as co-authors; press Enter after each. The Reel shows on their profiles once they accept.
          </p>
        )}
      </div>
      <p className="text-xs text-muted-foreground">Reels are public on Instagram: there is no privacy to choose.</p>
    </fieldset>
  );
}
