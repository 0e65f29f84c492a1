import { useId } from 'react';
import { BRANDED_CONTENT_LABEL, disclosureProblem, YOUR_BRAND_LABEL, type DisclosureChoice } from '@clipshift/shared';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

interface CommercialDisclosureProps {
  value: DisclosureChoice;
  onChange: (value: DisclosureChoice) => void;
  disabled?: boolean;
}

const KINDS: readonly { key: 'your_brand' | 'branded_content'; label: string; hint: string; labeled: string }[] = [
  { key: 'your_brand', label: 'Your brand', hint: 'You are promoting yourself or your own business.', labeled: YOUR_BRAND_LABEL },
  { key: 'branded_content', label: 'Branded content', hint: 'You are promoting another brand or a third party.', labeled: BRANDED_CONTENT_LABEL },
];

/**
 * TikTok's commercial content disclosure, as its content-sharing guidelines ask the composer to
 * offer it: a switch, then whose content the post promotes, with the label TikTok will show.
 */
export function CommercialDisclosure({ value, onChange, disabled = false }: CommercialDisclosureProps) {
  const id = useId();
  const problem = disclosureProblem(value);
  return (
    <fieldset className="min-w-0 space-y-3" data-testid="commercial-disclosure">
      <legend className="sr-only">Commercial content</legend>
      <div className="flex items-start justify-between gap-3">
        <div className="space-y-0.5">
          <Label htmlFor={`${id}-switch`}>Disclose video content</Label>
          <p className="text-xs text-muted-foreground">Turn on to disclose that this video promotes goods or services in exchange for something of value.</p>
        </div>
        <Switch id={`${id}-switch`} checked={value.disclose} disabled={disabled} onCheckedChange={(disclose) => onChange({ ...value, disclose })} />
      </div>
      {value.disclose && (
        <div className="space-y-2">
          {KINDS.map((kind) => (
            <div key={kind.key} className="space-y-0.5">
              <Label htmlFor={`${id}-${kind.key}`} className="cursor-pointer font-normal">
                <Checkbox
                  id={`${id}-${kind.key}`}
                  checked={value[kind.key]}
                  disabled={disabled}
                  onCheckedChange={(checked) => onChange({ ...value, [kind.key]: checked === true })}
                />
                {kind.label}
              </Label>
              <p className="pl-6 text-xs text-muted-foreground">{kind.hint}</p>
              {value[kind.key] && (
                <p className="pl-6 text-xs font-medium" data-testid="disclosure-label">
                  {kind.labeled}
                </p>
              )}
            </div>
          ))}
          {problem && (
            <p className="text-xs text-warning-soft-foreground" role="status" data-testid="disclosure-problem">
              {problem}
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
