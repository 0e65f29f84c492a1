import { useId, type ReactNode } from 'react';
import { BRANDED_CONTENT_PRIVATE, PRIVATE_LEVEL } from '@clipshift/shared';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';
import { isPrivacyLevel, PRIVACY_LEVELS, privacyLabel, type PrivacyLevel } from './tiktok-posting';

const PRIVACY_HINT =
  'Each TikTok account offers its own levels (a private account cannot post to Everyone). If an account does not offer the level you choose, TikTok refuses the post and you will see why.';

interface PrivacySelectProps {
  value: PrivacyLevel | null;
  /** The levels the chosen accounts offer (from TikTok's creator info); null lists all four. */
  options?: readonly PrivacyLevel[] | null;
  onChange: (level: PrivacyLevel) => void;
  disabled?: boolean;
  /** The explanation under the select; the details modal keeps it short. */
  compact?: boolean;
  className?: string;
  /** Shown beside the select (the details modal's Post button). */
  children?: ReactNode;
  /** Branded content is disclosed: "Only me" is offered disabled, with the reason (TikTok refuses it). */
  brandedContent?: boolean;
}

/**
 * Who can see the post. TikTok's content-sharing guidelines ask for no preselected value: the
 * placeholder shows until the user chooses, and posting waits for a choice.
 */
export function PrivacySelect({ value, options = null, onChange, disabled = false, compact = false, className, children, brandedContent = false }: PrivacySelectProps) {
  const id = useId();
  const levels = options ?? PRIVACY_LEVELS;
  const hintId = `${id}-hint`;
  return (
    <div className={cn('space-y-2', className)}>
      <Label htmlFor={id}>Who can view this post</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Select value={value ?? ''} onValueChange={(next) => isPrivacyLevel(next) && onChange(next)} disabled={disabled}>
          <SelectTrigger id={id} aria-describedby={hintId} aria-required="true" className="sm:flex-1">
            <SelectValue placeholder="Choose a privacy level" />
          </SelectTrigger>
          <SelectContent>
            {levels.map((level) => {
              const refused = brandedContent && level === PRIVATE_LEVEL;
              return (
                <SelectItem key={level} value={level} disabled={refused}>
                  {privacyLabel(level)}
                  {refused && <span className="text-xs text-muted-foreground"> ({BRANDED_CONTENT_PRIVATE})</span>}
                </SelectItem>
              );
            })}
          </SelectContent>
        </Select>
        {children}
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {options
          ? options.length
            ? 'The levels every chosen account offers, as TikTok reports them.'
            : 'The chosen accounts share no privacy level: post to them one at a time.'
          : compact
            ? 'Required. TikTok refuses a level the account does not offer, and says why.'
            : PRIVACY_HINT}
      </p>
    </div>
  );
}
