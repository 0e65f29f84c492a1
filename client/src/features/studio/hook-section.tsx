import { useId, useState } from 'react';
import { Sparkles } from 'lucide-react';
import { DEFAULT_HOOK_SECONDS, HOOK_MAX_LENGTH, MAX_HOOK_SECONDS, MIN_HOOK_SECONDS, type Hook } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { SectionHeader, SliderField } from './studio-controls';
import { clipHookCard, sectionIsOwn } from './studio-draft';
import type { StudioEditor } from './use-studio-editor';

const secondsText = (value: number) => `${value} s`;

interface HookTextProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  placeholder: string;
  hint?: string;
}

/** The card's line, with its character count (the server takes at most HOOK_MAX_LENGTH). */
function HookText({ label, value, onChange, placeholder, hint }: HookTextProps) {
  const id = useId();
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <span id={`${id}-count`} className="text-xs text-muted-foreground tabular-nums" data-testid="hook-count">
          {value.length} / {HOOK_MAX_LENGTH}
        </span>
      </div>
      <Input
        id={id}
        value={value}
        maxLength={HOOK_MAX_LENGTH}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={hint ? `${id}-count ${id}-hint` : `${id}-count`}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

function OnOff({ label, description, checked, onChange }: { label: string; description: string; checked: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 rounded-lg border px-4 py-3">
      <div className="min-w-0 space-y-1">
        <Label htmlFor={id} className="cursor-pointer">
          {label}
        </Label>
        <p id={`${id}-description`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={`${id}-description`} />
    </div>
  );
}

/** "Suggested: …" with a button that puts it on the card. */
function Suggestion({ text, onUse }: { text: string; onUse: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-muted/60 px-3 py-2 text-sm" data-testid="hook-suggestion">
      <p className="flex min-w-0 items-start gap-1.5">
        <Sparkles className="mt-0.5 size-4 shrink-0 text-brand-text" aria-hidden="true" />
        <span className="min-w-0 break-words">
          <span className="text-muted-foreground">Suggested: </span>
          {text}
        </span>
      </p>
      <Button type="button" size="sm" variant="outline" onClick={onUse} aria-label={`Use the suggested hook: ${text}`}>
        Use
      </Button>
    </div>
  );
}

/**
 * One clip's title card: what it shows (its own text, else by its streamer's setting its suggested
 * hook or the streamer's line). Off is an empty text: no card on this clip.
 */
function ClipHook({ editor, suggestion }: { editor: StudioEditor; suggestion: string | null }) {
  const { draft, fallback } = editor;
  const card = clipHookCard(draft.hook, fallback.hook, suggestion);
  // Turned on with nothing to show yet: the field stays open for the text to be typed.
  const [opened, setOpened] = useState(false);
  const on = card !== null || opened;
  const seconds = card?.seconds ?? draft.hook?.seconds ?? fallback.hook?.seconds ?? DEFAULT_HOOK_SECONDS;
  const text = card?.text ?? '';
  const setHook = (hook: Hook) => editor.set('hook', hook);
  const turn = (next: boolean) => {
    setOpened(next);
    setHook({ text: next ? (suggestion ?? fallback.hook?.text ?? '') : '', seconds });
  };
  const reset = () => {
    setOpened(false);
    editor.reset('hook');
  };
  const offerSuggestion = suggestion && suggestion !== text;
  return (
    <section className="space-y-5" aria-label="Hook">
      <SectionHeader
        title="Hook"
        description="A title card over the first seconds, to stop the scroll."
        mode="clip"
        own={sectionIsOwn(draft, 'hook')}
        onReset={reset}
      />
      <OnOff
        label="Title card on this clip"
        description={on ? 'Shown over the first seconds of the video.' : 'No title card on this clip.'}
        checked={on}
        onChange={turn}
      />
      {on && (
        <>
          <HookText
            label="Text"
            value={text}
            onChange={(next) => setHook({ text: next, seconds })}
            placeholder="A short line about the moment"
            hint={text.trim() ? undefined : 'Empty: no title card on this clip.'}
          />
          <SliderField label="On screen for" value={seconds} min={MIN_HOOK_SECONDS} max={MAX_HOOK_SECONDS} step={0.5} format={secondsText} onChange={(next) => setHook({ text, seconds: next })} />
        </>
      )}
      {offerSuggestion && (
        <Suggestion
          text={suggestion}
          onUse={() => {
            setOpened(true);
            setHook({ text: suggestion, seconds });
          }}
        />
      )}
    </section>
  );
}

/** A streamer's title cards: on or off for its clips, each showing its suggested hook, else this line. */
function StreamerHook({ editor, suggestion }: { editor: StudioEditor; suggestion: string | null }) {
  const { draft, values } = editor;
  const hook = values.hook;
  return (
    <section className="space-y-5" aria-label="Hook">
      <SectionHeader
        title="Hook"
        description="A title card over the first seconds of each clip. Each clip shows its own suggested hook, written with its descriptions; a clip's studio can change or remove it."
        mode="streamer"
        own={sectionIsOwn(draft, 'hook')}
        onReset={() => editor.reset('hook')}
      />
      <OnOff
        label="Title card on every clip"
        description={hook ? "Each clip's suggested hook, or the line below for a clip without one." : 'No title cards.'}
        checked={hook !== null}
        onChange={(on) => editor.set('hook', on ? { text: '', seconds: DEFAULT_HOOK_SECONDS } : null)}
      />
      {hook && (
        <>
          <HookText
            label="Line for clips without a suggestion"
            value={hook.text}
            onChange={(text) => editor.set('hook', { ...hook, text })}
            placeholder="Optional: such clips get no card"
            hint={suggestion ? `This clip's suggested hook: “${suggestion}”.` : undefined}
          />
          <SliderField label="On screen for" value={hook.seconds} min={MIN_HOOK_SECONDS} max={MAX_HOOK_SECONDS} step={0.5} format={secondsText} onChange={(seconds) => editor.set('hook', { ...hook, seconds })} />
        </>
      )}
    </section>
  );
}

/** The title card over the first seconds: one clip's, or a streamer's for all its clips. */
export function HookSection({ editor, suggestion }: { editor: StudioEditor; suggestion: string | null }) {
  return editor.mode === 'clip' ? <ClipHook editor={editor} suggestion={suggestion} /> : <StreamerHook editor={editor} suggestion={suggestion} />;
}
