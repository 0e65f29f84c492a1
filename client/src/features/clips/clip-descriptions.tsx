import { useState } from 'react';
import { sortByRank, type ClipDetails } from '@clipshift/shared';
import { DescriptionEditor } from './description-editor';
import { DescriptionOptions } from './description-options';
import { useUpdateDescriptions } from './use-update-descriptions';

/** What the editor starts with: the saved custom text, else the chosen suggestion. */
function initialText(clip: ClipDetails, options: ClipDetails['metadata']['descriptions']): string {
  if (clip.custom_description) return clip.custom_description;
  return options[clip.selected_description]?.description ?? '';
}

/**
 * Suggestions and the custom description. Choosing a suggestion copies it into the editor and
 * remembers the choice; the editor's text is saved with its own button.
 */
export function ClipDescriptions({ clip }: { clip: ClipDetails }) {
  // The server already lists them by rank; sorting again keeps this true whatever the source.
  const options = sortByRank(clip.metadata.descriptions);
  const [text, setText] = useState(() => initialText(clip, options));
  const { save, select, saving } = useUpdateDescriptions(clip.clip_id);

  const choose = (index: number) => {
    const option = options[index];
    if (!option) return;
    setText(option.description);
    select(index);
  };

  return (
    <section aria-labelledby="clip-descriptions-heading" className="space-y-3">
      <h3 id="clip-descriptions-heading" className="text-sm font-semibold">
        Description
      </h3>
      <DescriptionOptions options={options} selectedIndex={clip.selected_description} onChoose={choose} />
      <DescriptionEditor value={text} onChange={setText} onSave={() => save(text)} saving={saving} />
    </section>
  );
}
