import { useState, type ReactNode } from 'react';
import type { ClipDetails } from '@clipshift/shared';
import { DescriptionEditor } from '../shared/description-editor';
import { DescriptionOptions } from '../shared/description-options';
import { rankedSuggestions, savedDescription } from '../shared/description-text';
import { useUpdateDescriptions } from '@/api/clips';

interface ClipDescriptionsProps {
  clip: ClipDetails;
  /** What to show under the editor with its current text (the details modal's Post to TikTok). */
  renderAfter?: (text: string) => ReactNode;
}

/**
 * Suggestions and the custom description. Choosing a suggestion copies it into the editor and
 * remembers the choice; the editor's text is saved with its own button.
 */
export function ClipDescriptions({ clip, renderAfter }: ClipDescriptionsProps) {
  const options = rankedSuggestions(clip);
  const [text, setText] = useState(() => savedDescription(clip, options));
  const { save, select, saving } = useUpdateDescriptions(clip.clip_id);

  const choose = (index: number) => {
    const option = options[index];
    if (!option) return;
    setText(option.description);
    select(index);
  };

  return (
    <>
      <section aria-labelledby="clip-descriptions-heading" className="space-y-3">
        <h3 id="clip-descriptions-heading" className="text-sm font-semibold">
          Description
        </h3>
        <DescriptionOptions options={options} selectedIndex={clip.selected_description} onChoose={choose} />
        <DescriptionEditor value={text} onChange={setText} onSave={() => save(text)} saving={saving} />
      </section>
      {renderAfter?.(text)}
    </>
  );
}
