import { useState } from 'react';
import { ChevronRight } from 'lucide-react';
import {
  CAPTION_PRESET_LABELS,
  CAPTION_PRESET_STYLES,
  CAPTION_PRESETS,
  GLOSSARY_MAX_TERMS,
  GLOSSARY_TERM_MAX_LENGTH,
  MAX_CAPTION_SIZE,
  MIN_CAPTION_SIZE,
  type CaptionPreset,
  type CaptionStyle,
} from '@clipshift/shared';
import { useCaptionFontFamilies } from '@/api/studio';
import { CaptionFontSelect } from '@/components/caption-font-select';
import { ChipsInput, useChips } from '@/components/chips-input';
import { ColorSwatch } from '@/components/color-swatch';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SegmentedControl, type SegmentedOption } from '@/components/ui/segmented-control';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import { Field, SwitchRow } from './form-controls';
import { addGlossaryTerms, GLOSSARY_TERM_TOO_LONG, presetValues, type CaptionStyleValues, type StreamerFormErrors, type StreamerFormValues } from './streamer-form';

interface FieldsProps {
  values: StreamerFormValues;
  errors: StreamerFormErrors;
  onChange: (patch: Partial<StreamerFormValues>) => void;
}

/** "Aa" drawn in the preset's colours, so the tiles show the look rather than describe it. */
function PresetSample({ style }: { style: CaptionStyle }) {
  return (
    <span
      aria-hidden="true"
      className={cn('inline-flex h-5 min-w-7 items-center justify-center rounded px-1 text-xs font-black', style.preset === 'boxed' ? '' : 'bg-neutral-700')}
      style={{
        color: style.highlight_color,
        backgroundColor: style.preset === 'boxed' ? style.outline_color : undefined,
        textShadow: style.preset === 'minimal' || style.preset === 'boxed' ? undefined : `0 0 2px ${style.outline_color}`,
      }}
    >
      {style.uppercase ? 'AA' : 'Aa'}
    </span>
  );
}

const PRESET_DESCRIPTIONS: Record<CaptionPreset, string> = {
  classic: 'Outlined, yellow highlight',
  bold: 'Big capitals, green highlight',
  boxed: 'Words on a dark box',
  minimal: 'Small and plain',
  karaoke: 'Each word pops in cyan as it is said',
  punch: 'Two big words at a time, key words in red',
};

const PRESET_OPTIONS: readonly SegmentedOption<CaptionPreset>[] = CAPTION_PRESETS.map((preset) => ({
  value: preset,
  label: CAPTION_PRESET_LABELS[preset],
  description: PRESET_DESCRIPTIONS[preset],
  icon: <PresetSample style={CAPTION_PRESET_STYLES[preset]} />,
}));

/** The style differs from its preset's own: the customisation starts open so it shows. */
function isCustomised(style: CaptionStyleValues): boolean {
  const preset = presetValues(style.preset);
  return (Object.keys(preset) as (keyof CaptionStyleValues)[]).some((key) => preset[key] !== style[key]);
}

function ColorField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <ColorSwatch id={id} value={value} onChange={onChange} />
        <span className="font-mono text-xs text-muted-foreground">{value.toUpperCase()}</span>
      </div>
    </div>
  );
}

export function CaptionStyleField({ values, errors, onChange }: FieldsProps) {
  const style = values.captionStyle;
  const families = useCaptionFontFamilies(style.font);
  const [open, setOpen] = useState(() => isCustomised(style) || Boolean(errors.captionSize));
  const set = (patch: Partial<CaptionStyleValues>) => onChange({ captionStyle: { ...style, ...patch } });
  const percentDown = Math.round(style.position * 100);

  return (
    <div className="space-y-3">
      <div className="space-y-2">
        <span id="streamer-captions-label" className="text-sm font-medium">
          Caption style
        </span>
        <SegmentedControl
          labelledBy="streamer-captions-label"
          describedBy="streamer-captions-hint"
          name="caption_preset"
          value={style.preset}
          options={PRESET_OPTIONS}
          className="grid-cols-1 min-[420px]:grid-cols-2"
          onValueChange={(preset) => onChange({ captionStyle: presetValues(preset) })}
        />
        <p id="streamer-captions-hint" className="text-xs text-muted-foreground">
          How subtitles of this streamer’s clips look; a clip can still use its own.
        </p>
      </div>
      <details
        className="group rounded-lg border"
        open={open || Boolean(errors.captionSize) || Boolean(errors.captionStyle)}
        onToggle={(event) => setOpen(event.currentTarget.open)}
      >
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-2.5 text-sm font-medium select-none focus-visible:ring-3 focus-visible:ring-ring/30 focus-visible:outline-none [&::-webkit-details-marker]:hidden">
          <ChevronRight className="size-4 text-muted-foreground transition-transform group-open:rotate-90" aria-hidden="true" />
          Customise
        </summary>
        <div className="space-y-4 border-t px-3 py-3">
          <div className="grid gap-4 min-[420px]:grid-cols-2">
            <Field id="streamer-caption-font" label="Font">
              {(aria) => <CaptionFontSelect id={aria.id} aria-describedby={aria['aria-describedby']} value={style.font} families={families} onChange={(font) => set({ font })} />}
            </Field>
            <Field id="streamer-caption-size" label="Size" error={errors.captionSize} hint={`Pixels at 1080 wide, ${MIN_CAPTION_SIZE} to ${MAX_CAPTION_SIZE}.`}>
              {(aria) => (
                <Input
                  {...aria}
                  name="caption_size"
                  type="number"
                  inputMode="numeric"
                  min={MIN_CAPTION_SIZE}
                  max={MAX_CAPTION_SIZE}
                  step={1}
                  value={style.size}
                  onChange={(event) => set({ size: event.target.value })}
                />
              )}
            </Field>
          </div>
          <div className="grid grid-cols-2 gap-4 min-[420px]:grid-cols-3">
            <ColorField id="streamer-caption-primary" label="Text colour" value={style.primary_color} onChange={(primary_color) => set({ primary_color })} />
            <ColorField id="streamer-caption-highlight" label="Highlight colour" value={style.highlight_color} onChange={(highlight_color) => set({ highlight_color })} />
            <ColorField id="streamer-caption-outline" label="Outline colour" value={style.outline_color} onChange={(outline_color) => set({ outline_color })} />
          </div>
          <div className="space-y-2">
            <div className="flex items-center justify-between gap-2">
              <Label htmlFor="streamer-caption-position">Position</Label>
              <output htmlFor="streamer-caption-position" className="text-xs text-muted-foreground tabular-nums">
                {percentDown}% down
              </output>
            </div>
            <input
              id="streamer-caption-position"
              type="range"
              min={0}
              max={1}
              step={0.01}
              value={style.position}
              aria-valuetext={`${percentDown}% from the top`}
              onChange={(event) => set({ position: Number(event.target.value) })}
              className="w-full cursor-pointer accent-[var(--color-brand)]"
            />
          </div>
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor="streamer-caption-uppercase" className="cursor-pointer">
              Capital letters
            </Label>
            <Switch id="streamer-caption-uppercase" checked={style.uppercase} onCheckedChange={(uppercase) => set({ uppercase })} />
          </div>
          {errors.captionStyle && (
            <p className="text-xs font-medium text-destructive" data-testid="field-error">
              {errors.captionStyle}
            </p>
          )}
        </div>
      </details>
    </div>
  );
}

/** Terms as chips (see useChips): names, game terms and emotes speech recognition should know. */
export function GlossaryField({ values, errors, onChange }: FieldsProps) {
  const chips = useChips({
    items: values.glossary,
    onChange: (glossary) => onChange({ glossary }),
    add: addGlossaryTerms,
    typedProblem: (typed) => (typed.trim().length > GLOSSARY_TERM_MAX_LENGTH ? GLOSSARY_TERM_TOO_LONG : null),
  });
  return (
    <Field
      id="streamer-glossary"
      label="Glossary"
      error={chips.problem ?? errors.glossary}
      hint="Names, game terms and emotes speech recognition should know. Press Enter after each, or paste a list."
    >
      {(aria) => (
        <ChipsInput
          {...aria}
          aria-invalid={aria['aria-invalid'] ?? (chips.problem ? true : undefined)}
          chips={chips}
          items={values.glossary}
          listLabel="Glossary terms"
          max={GLOSSARY_MAX_TERMS}
          name="glossary_term"
          placeholder="e.g. PogChamp"
        />
      )}
    </Field>
  );
}

export function LoudnessField({ values, onChange }: FieldsProps) {
  return (
    <SwitchRow
      id="streamer-normalize-audio"
      label="Normalise loudness (-14 LUFS)"
      description="Every clip plays about as loud as TikTok and YouTube expect, peaks under -1 dBTP."
      checked={values.normalizeAudio}
      onCheckedChange={(normalizeAudio) => onChange({ normalizeAudio })}
    />
  );
}
