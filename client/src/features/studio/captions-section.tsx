import { useId } from 'react';
import {
  CAPTION_PRESET_LABELS,
  CAPTION_PRESET_STYLES,
  CAPTION_PRESETS,
  MAX_CAPTION_SIZE,
  MIN_CAPTION_SIZE,
  type CaptionPreset,
  type CaptionStyle,
} from '@clipshift/shared';
import { Label } from '@/components/ui/label';
import { SegmentedControl } from '@/components/ui/segmented-control';
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

/** The caption style: a preset, then any of its fields changed. */
export function CaptionsSection({ editor }: { editor: StudioEditor }) {
  const { mode, draft, values } = editor;
  const style = values.caption_style;
  const families = useCaptionFontFamilies(style.font);
  const presetLabel = useId();
  const fontId = useId();
  const change = (changes: Partial<CaptionStyle>) => editor.set('caption_style', { ...style, ...changes });

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
          className="grid-cols-2 sm:grid-cols-4"
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
    </section>
  );
}
