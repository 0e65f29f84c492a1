import { useId } from 'react';
import {
  CAPTION_ANIMATION_LABELS,
  CAPTION_ANIMATIONS,
  CAPTION_EMOJI_LABELS,
  CAPTION_EMOJI_MODES,
  CAPTION_PRESET_LABELS,
  CAPTION_PRESET_STYLES,
  CAPTION_PRESETS,
  MAX_CAPTION_SHADOW,
  MAX_CAPTION_SIZE,
  MAX_CAPTION_STROKE,
  MAX_CAPTION_WORDS,
  MIN_CAPTION_SIZE,
  MIN_CAPTION_WORDS,
  SAFE_ZONE_LABELS,
  SAFE_ZONES,
  type CaptionPreset,
  type CaptionStyle,
} from '@clipshift/shared';
import { Label } from '@/components/ui/label';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useCaptionFontFamilies } from '@/api/studio';
import { CaptionFontSelect } from '@/components/caption-font-select';
import { ColorSwatch } from '@/components/color-swatch';
import { SectionHeader, SliderField, SwitchField } from './studio-controls';
import { sectionIsOwn } from './studio-draft';
import type { StudioEditor } from './use-studio-editor';

type ColorField = 'primary_color' | 'highlight_color' | 'outline_color';
const COLOR_FIELDS: readonly { field: ColorField; label: string }[] = [
  { field: 'primary_color', label: 'Text' },
  { field: 'highlight_color', label: 'Highlight' },
  { field: 'outline_color', label: 'Outline' },
];

function ColorInput({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <ColorSwatch id={id} value={value} onChange={onChange} />
      <Label htmlFor={id} className="flex-col items-start gap-0.5">
        <span>{label}</span>
        <span className="font-mono text-xs font-normal text-muted-foreground">{value}</span>
      </Label>
    </div>
  );
}

interface ChoiceFieldProps<T extends string> {
  label: string;
  value: T;
  choices: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
  hint?: string;
}

/** A labelled select over a fixed list (animation, emoji, safe zone). */
function ChoiceField<T extends string>({ label, value, choices, labels, onChange, hint }: ChoiceFieldProps<T>) {
  const id = useId();
  const isChoice = (next: string): next is T => (choices as readonly string[]).includes(next);
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={(next) => isChoice(next) && onChange(next)}>
        <SelectTrigger id={id} aria-describedby={hint ? `${id}-hint` : undefined}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {choices.map((choice) => (
            <SelectItem key={choice} value={choice}>
              {labels[choice]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The caption style: a preset, then any of its fields changed. */
export function CaptionsSection({ editor }: { editor: StudioEditor }) {
  const { mode, draft, values } = editor;
  const style = values.caption_style;
  const families = useCaptionFontFamilies(style.font);
  const presetLabel = useId();
  const fontId = useId();
  const change = (changes: Partial<CaptionStyle>) => editor.set('caption_style', { ...style, ...changes });
  const boxed = style.preset === 'boxed';

  return (
    <section className="space-y-5" aria-label="Captions">
      <SectionHeader
        title="Captions"
        description="How the words are drawn when the clip has subtitles."
        mode={mode}
        own={sectionIsOwn(draft, 'captions')}
        onReset={() => editor.reset('captions')}
      />
      <div className="space-y-2">
        <Label id={presetLabel}>Style</Label>
        <SegmentedControl
          labelledBy={presetLabel}
          value={style.preset}
          onValueChange={(preset: CaptionPreset) => editor.set('caption_style', CAPTION_PRESET_STYLES[preset])}
          options={CAPTION_PRESETS.map((preset) => ({ value: preset, label: CAPTION_PRESET_LABELS[preset] }))}
          className="grid-cols-2 sm:grid-cols-3"
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fontId}>Font</Label>
          <CaptionFontSelect id={fontId} value={style.font} families={families} onChange={(font) => change({ font })} />
        </div>
        <SliderField
          label="Size"
          value={style.size}
          min={MIN_CAPTION_SIZE}
          max={MAX_CAPTION_SIZE}
          step={1}
          format={(value) => `${value} px`}
          onChange={(size) => change({ size })}
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Colours</legend>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {COLOR_FIELDS.map(({ field, label }) => (
            <ColorInput key={field} label={label} value={style[field]} onChange={(value) => change({ [field]: value })} />
          ))}
        </div>
      </fieldset>
      <SliderField
        label="Vertical position"
        value={style.position}
        min={0}
        max={1}
        step={0.01}
        format={(value) => `${Math.round(value * 100)}% from the top`}
        onChange={(position) => change({ position })}
        hint="Where the middle of the caption block sits; keep it above the app's buttons at the bottom."
      />
      <SwitchField label="Uppercase" checked={style.uppercase} onChange={(uppercase) => change({ uppercase })} />
      <div className="grid gap-5 sm:grid-cols-2">
        <ChoiceField label="Animation" value={style.animation} choices={CAPTION_ANIMATIONS} labels={CAPTION_ANIMATION_LABELS} onChange={(animation) => change({ animation })} />
        <SliderField
          label="Words at once"
          value={style.max_words}
          min={MIN_CAPTION_WORDS}
          max={MAX_CAPTION_WORDS}
          step={1}
          format={(value) => (value === 1 ? '1 word' : `${value} words`)}
          onChange={(max_words) => change({ max_words })}
        />
        <SliderField
          label="Outline"
          value={style.stroke_width}
          min={0}
          max={MAX_CAPTION_STROKE}
          step={1}
          format={(value) => `${value} px`}
          onChange={(stroke_width) => change({ stroke_width })}
          disabled={boxed}
          hint={boxed ? 'Boxed draws a box instead of an outline.' : undefined}
        />
        <SliderField
          label="Shadow"
          value={style.shadow}
          min={0}
          max={MAX_CAPTION_SHADOW}
          step={1}
          format={(value) => `${value} px`}
          onChange={(shadow) => change({ shadow })}
          disabled={boxed}
          hint={boxed ? 'Boxed draws a box instead of a shadow.' : undefined}
        />
      </div>
      <div className="space-y-3">
        <SwitchField
          label="Colour key words"
          description="Names, glossary terms, numbers and the most telling word of each caption."
          checked={style.emphasis === 'keywords'}
          onChange={(on) => change({ emphasis: on ? 'keywords' : 'none' })}
        />
        {style.emphasis === 'keywords' && <ColorInput label="Key word colour" value={style.emphasis_color} onChange={(emphasis_color) => change({ emphasis_color })} />}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <ChoiceField
          label="Emoji"
          value={style.emoji}
          choices={CAPTION_EMOJI_MODES}
          labels={CAPTION_EMOJI_LABELS}
          onChange={(emoji) => change({ emoji })}
          hint="Drawn in colour; Automatic adds a fitting one now and then."
        />
        <ChoiceField
          label="Keep clear of"
          value={style.safe_zone}
          choices={SAFE_ZONES}
          labels={SAFE_ZONE_LABELS}
          onChange={(safe_zone) => change({ safe_zone })}
          hint="Captions stay out of that app's buttons and caption area (outlined on the preview)."
        />
      </div>
    </section>
  );
}
