import type { DescriptionOptionDto } from '@clipshift/shared';
import { DescriptionEditor } from '../shared/description-editor';
import { DescriptionOptions } from '../shared/description-options';

interface DescriptionStepProps {
  suggestions: readonly DescriptionOptionDto[];
  description: string;
  onChange: (text: string) => void;
}

/** Step 2: the ranked suggestions (click one to use it) and the description with its counter and hashtag tip. */
export function DescriptionStep({ suggestions, description, onChange }: DescriptionStepProps) {
  const chosen = suggestions.findIndex((option) => option.description === description);
  const use = (index: number) => {
    const option = suggestions[index];
    if (option) onChange(option.description);
  };
  return (
    <div className="space-y-4">
      <section aria-labelledby="wizard-suggestions-heading" className="space-y-2">
        <h3 id="wizard-suggestions-heading" className="text-sm font-semibold">
          Suggestions
        </h3>
        <div className="max-h-64 overflow-y-auto pr-1">
          <DescriptionOptions options={suggestions} selectedIndex={chosen} onChoose={use} />
        </div>
      </section>
      <DescriptionEditor label="Description" value={description} onChange={onChange} rows={5} />
      {description.trim() === '' && (
        <p className="text-xs text-muted-foreground" data-testid="description-required">
          Write a description, or pick a suggestion, to continue.
        </p>
      )}
    </div>
  );
}
