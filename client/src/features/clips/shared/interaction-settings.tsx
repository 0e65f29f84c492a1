import { useId } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import type { Interactions } from './tiktok-posting';

const OPTIONS: readonly { key: keyof Interactions; label: string }[] = [
  { key: 'comments', label: 'Allow comments' },
  { key: 'duet', label: 'Allow Duet' },
  { key: 'stitch', label: 'Allow Stitch' },
];

interface InteractionSettingsProps {
  value: Interactions;
  /** Interactions the creator has turned off in TikTok: shown off and not changeable. */
  locked?: Interactions;
  onChange: (value: Interactions) => void;
  disabled?: boolean;
}

/** What viewers may do with the post (TikTok's content-sharing guidelines); all allowed at first. */
export function InteractionSettings({ value, locked, onChange, disabled = false }: InteractionSettingsProps) {
  const id = useId();
  return (
    <fieldset className="min-w-0 space-y-2" aria-describedby={`${id}-hint`}>
      <legend className="mb-2 text-sm font-medium">Interactions</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {OPTIONS.map((option) => (
          <Label key={option.key} htmlFor={`${id}-${option.key}`} className="cursor-pointer font-normal">
            <Checkbox
              id={`${id}-${option.key}`}
              checked={value[option.key] && !locked?.[option.key]}
              disabled={disabled || locked?.[option.key] === true}
              onCheckedChange={(checked) => onChange({ ...value, [option.key]: checked === true })}
            />
            {option.label}
            {locked?.[option.key] && <span className="text-xs text-muted-foreground">(turned off by the account)</span>}
          </Label>
        ))}
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        An interaction the account has turned off in TikTok stays off.
      </p>
    </fieldset>
  );
}
