import { useId, useState } from 'react';
import { LoaderCircle, Save } from 'lucide-react';
import { DEFAULT_HOOK_SECONDS, HOOK_MAX_LENGTH, type Clip } from '@clipshift/shared';
import { useSaveClipHook } from '@/api/review';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/**
 * The clip's title card, from its suggested hook: edited and saved to the clip's own edit (an
 * empty line saves "no card on this clip"). The video shows it from its next render.
 */
export function HookField({ clip }: { clip: Pick<Clip, 'clip_id' | 'edit' | 'hook_suggestion'> }) {
  const id = useId();
  const own = clip.edit.hook;
  const saved = own?.text ?? clip.hook_suggestion ?? '';
  const [text, setText] = useState(saved);
  const [savedText, setSavedText] = useState(own ? saved : null);
  const hook = useSaveClipHook(clip.clip_id);
  const save = () => {
    hook.save({ text, seconds: own?.seconds ?? DEFAULT_HOOK_SECONDS }, () => setSavedText(text.trim()));
  };
  const note = savedText === null ? (clip.hook_suggestion ? 'Suggested for the first seconds; save to put it on this clip.' : 'A line over the first seconds; save to put it on this clip.') : savedText ? 'Saved for this clip.' : 'Saved: no title card on this clip.';
  return (
    <div className="space-y-2" data-testid="review-hook">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>Title card</Label>
        <span className="text-xs text-muted-foreground tabular-nums">
          {text.length} / {HOOK_MAX_LENGTH}
        </span>
      </div>
      <div className="flex gap-2">
        <Input id={id} value={text} maxLength={HOOK_MAX_LENGTH} onChange={(event) => setText(event.target.value)} placeholder="No title card" aria-describedby={`${id}-note`} />
        <Button type="button" variant="outline" onClick={save} disabled={hook.saving || text.trim() === savedText}>
          {hook.saving ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
          Save
        </Button>
      </div>
      <p id={`${id}-note`} className="text-xs text-muted-foreground">
        {note}
      </p>
    </div>
  );
}
