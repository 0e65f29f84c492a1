import type { ReactNode } from 'react';
import { Crop, Monitor, PanelTop, ScanFace, Smartphone, SquareStack } from 'lucide-react';
import {
  CLIP_CREATORS_MAX,
  CLIP_LIMIT_MAX,
  CLIP_LIMIT_MIN,
  CLIP_PERIODS,
  MIN_VIEWS_MAX,
  type ClipPeriod,
  type PublishMode,
  type RankBy,
  DEFAULT_SCHEDULE,
  LANGUAGE_OPTIONS,
  LAYOUT_LABELS,
  LAYOUTS,
  SCHEDULE_UNITS,
  type Layout,
  type ScheduleUnit,
} from '@clipshift/shared';
import { ChipsInput, useChips } from '@/components/chips-input';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Slider } from '@/components/ui/slider';
import { cn } from '@/lib/utils';
import { SegmentedControl, type SegmentedOption } from '@/components/ui/segmented-control';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Field, SwitchRow } from './form-controls';
import { addClipCreators, SPLIT_NEEDS_FACECAM, type StreamerFormErrors, type StreamerFormMode, type StreamerFormValues } from './streamer-form';

interface FieldsProps {
  values: StreamerFormValues;
  errors: StreamerFormErrors;
  onChange: (patch: Partial<StreamerFormValues>) => void;
}

export function NameField({ values, errors, onChange, mode }: FieldsProps & { mode: StreamerFormMode }) {
  const editing = mode === 'edit';
  return (
    <Field
      id="streamer-name"
      label="Streamer name"
      error={errors.name}
      hint={editing ? 'A streamer’s name cannot be changed.' : 'The Twitch login, as in twitch.tv/name.'}
    >
      {(aria) => (
        <Input
          {...aria}
          name="name"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. pixelqueen"
          aria-required="true"
          readOnly={editing}
          className={editing ? 'bg-muted text-muted-foreground' : undefined}
          value={values.name}
          onChange={(event) => onChange({ name: event.target.value })}
        />
      )}
    </Field>
  );
}

export function ClipLimitField({ values, errors, onChange }: FieldsProps) {
  return (
    <Field id="streamer-clip-limit" label="Clip limit" error={errors.clipLimit} hint={`Clips per download, ${CLIP_LIMIT_MIN} to ${CLIP_LIMIT_MAX}.`}>
      {(aria) => (
        <Input
          {...aria}
          name="clip_limit"
          type="number"
          inputMode="numeric"
          min={CLIP_LIMIT_MIN}
          max={CLIP_LIMIT_MAX}
          step={1}
          value={values.clipLimit}
          onChange={(event) => onChange({ clipLimit: event.target.value })}
        />
      )}
    </Field>
  );
}

/** Radix Select cannot hold an empty value: auto-detect travels as this token inside the select. */
const AUTO_DETECT = 'auto';

export function LanguageField({ values, onChange }: FieldsProps) {
  return (
    <Field id="streamer-language" label="Language" hint="Spoken language, used for subtitles.">
      {(aria) => (
        <Select
          value={values.language || AUTO_DETECT}
          onValueChange={(value) => onChange({ language: value === AUTO_DETECT ? '' : value })}
        >
          <SelectTrigger id={aria.id} aria-describedby={aria['aria-describedby']}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent className="max-h-72">
            {LANGUAGE_OPTIONS.map((option) => (
              <SelectItem key={option.code || AUTO_DETECT} value={option.code || AUTO_DETECT}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    </Field>
  );
}

type FormatValue = 'vertical' | 'horizontal';

const FORMAT_OPTIONS: readonly SegmentedOption<FormatValue>[] = [
  { value: 'vertical', label: 'Vertical', description: '9:16 for TikTok and Shorts', icon: <Smartphone /> },
  { value: 'horizontal', label: 'Horizontal', description: 'As streamed, 16:9', icon: <Monitor /> },
];

const LAYOUT_ICONS: Record<Layout, ReactNode> = { auto: <ScanFace />, blur: <SquareStack />, crop: <Crop />, split: <PanelTop /> };
const LAYOUT_DESCRIPTIONS: Record<Layout, string> = {
  auto: 'Finds the camera: split when there is one',
  blur: 'Whole frame over a blurred copy',
  crop: 'Fills the screen, cuts the sides',
  split: 'Facecam on top, gameplay below',
};
const LAYOUT_OPTIONS: readonly SegmentedOption<Layout>[] = LAYOUTS.map((layout) => ({
  value: layout,
  label: LAYOUT_LABELS[layout],
  description: LAYOUT_DESCRIPTIONS[layout],
  icon: LAYOUT_ICONS[layout],
}));

export function FormatFields({ values, errors, onChange }: FieldsProps) {
  // A split layout without a facecam region cannot render: say where the region is drawn.
  const splitNote = values.layout === 'split' && !values.regions.facecam;
  const layoutNote = errors.layout ?? (splitNote ? SPLIT_NEEDS_FACECAM : null);
  const describedBy = [values.vertical ? null : 'streamer-layout-hint', layoutNote ? 'streamer-layout-note' : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <span id="streamer-format-label" className="text-sm font-medium">
          Format
        </span>
        <SegmentedControl
          labelledBy="streamer-format-label"
          name="format"
          value={values.vertical ? 'vertical' : 'horizontal'}
          options={FORMAT_OPTIONS}
          onValueChange={(value) => onChange({ vertical: value === 'vertical' })}
        />
      </div>
      <div className="space-y-2">
        <span id="streamer-layout-label" className="text-sm font-medium">
          Vertical layout
        </span>
        <SegmentedControl
          labelledBy="streamer-layout-label"
          describedBy={describedBy}
          name="layout"
          value={values.layout}
          options={LAYOUT_OPTIONS}
          disabled={!values.vertical}
          onValueChange={(layout) => onChange({ layout })}
        />
        {!values.vertical && (
          <p id="streamer-layout-hint" className="text-xs text-muted-foreground">
            Only used for vertical videos.
          </p>
        )}
        {layoutNote && (
          <p
            id="streamer-layout-note"
            className={errors.layout ? 'text-xs font-medium text-destructive' : 'text-xs text-muted-foreground'}
            data-testid={errors.layout ? 'field-error' : undefined}
          >
            {layoutNote}
          </p>
        )}
      </div>
    </div>
  );
}

const UNIT_LABELS: Record<ScheduleUnit, string> = { minutes: 'Minutes', hours: 'Hours', days: 'Days' };

function parseUnit(value: string): ScheduleUnit {
  return SCHEDULE_UNITS.find((unit) => unit === value) ?? DEFAULT_SCHEDULE.unit;
}

export function ScheduleField({ values, errors, onChange }: FieldsProps) {
  return (
    <SwitchRow
      id="streamer-schedule"
      label="Download on a schedule"
      description="Fetch new clips automatically at a fixed interval."
      checked={values.scheduleEnabled}
      onCheckedChange={(scheduleEnabled) => onChange({ scheduleEnabled })}
    >
      {values.scheduleEnabled && (
        <div className="mt-3 space-y-2">
          <div className="flex items-center gap-2">
            <label htmlFor="streamer-schedule-interval" className="text-sm text-muted-foreground">
              Every<span className="sr-only"> (schedule interval)</span>
            </label>
            <Input
              id="streamer-schedule-interval"
              name="schedule_interval"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              aria-invalid={errors.scheduleInterval ? true : undefined}
              aria-describedby={errors.scheduleInterval ? 'streamer-schedule-interval-error' : undefined}
              className="w-20"
              value={values.scheduleInterval}
              onChange={(event) => onChange({ scheduleInterval: event.target.value })}
            />
            <Select value={values.scheduleUnit} onValueChange={(unit) => onChange({ scheduleUnit: parseUnit(unit) })}>
              <SelectTrigger aria-label="Schedule unit" className="w-32">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {SCHEDULE_UNITS.map((unit) => (
                  <SelectItem key={unit} value={unit}>
                    {UNIT_LABELS[unit]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {errors.scheduleInterval && (
            <p id="streamer-schedule-interval-error" className="text-xs font-medium text-destructive" data-testid="field-error">
              {errors.scheduleInterval}
            </p>
          )}
        </div>
      )}
    </SwitchRow>
  );
}

const PERIOD_LABELS: Record<ClipPeriod, string> = { day: 'Last 24 hours', week: 'Last 7 days', month: 'Last 30 days', all: 'Any time' };
const RANK_OPTIONS: readonly SegmentedOption<RankBy>[] = [
  { value: 'views', label: 'Most viewed', description: 'Highest view count' },
  { value: 'velocity', label: 'Rising fastest', description: 'Views per hour since made' },
];
const PUBLISH_OPTIONS: readonly SegmentedOption<PublishMode>[] = [
  { value: 'auto', label: 'Post at once', description: 'Or into the account’s next slot' },
  { value: 'review', label: 'Review first', description: 'New clips wait in Review' },
];

function parsePeriod(value: string): ClipPeriod {
  return CLIP_PERIODS.find((period) => period === value) ?? 'all';
}

/** Which clips a download picks: a period, a view floor, a ranking and an allowlist of clip creators. */
export function SelectionFields({ values, errors, onChange }: FieldsProps) {
  const chips = useChips({ items: values.clipCreators, onChange: (clipCreators) => onChange({ clipCreators }), add: addClipCreators });
  return (
    <fieldset className="space-y-5">
      <legend className="mb-3 text-sm font-semibold">Clip selection</legend>
      <div className="grid grid-cols-2 gap-x-4 gap-y-5">
        <Field id="streamer-clip-period" label="Clips made in" hint="Older clips are skipped.">
          {(aria) => (
            <Select value={values.clipPeriod} onValueChange={(value) => onChange({ clipPeriod: parsePeriod(value) })}>
              <SelectTrigger id={aria.id} aria-describedby={aria['aria-describedby']}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {CLIP_PERIODS.map((period) => (
                  <SelectItem key={period} value={period}>
                    {PERIOD_LABELS[period]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </Field>
        <Field id="streamer-min-views" label="Minimum views" error={errors.minViews} hint="Clips with fewer are skipped.">
          {(aria) => (
            <Input
              {...aria}
              name="min_views"
              type="number"
              inputMode="numeric"
              min={0}
              max={MIN_VIEWS_MAX}
              step={1}
              value={values.minViews}
              onChange={(event) => onChange({ minViews: event.target.value })}
            />
          )}
        </Field>
      </div>
      <div className="space-y-2">
        <span id="streamer-rank-label" className="text-sm font-medium">
          Rank by
        </span>
        <SegmentedControl labelledBy="streamer-rank-label" name="rank_by" value={values.rankBy} options={RANK_OPTIONS} onValueChange={(rankBy) => onChange({ rankBy })} />
      </div>
      <Field
        id="streamer-clip-creators"
        label="Clip creators"
        error={chips.problem ?? errors.clipCreators}
        hint="Twitch logins whose clips are accepted (mods, VIPs). Empty accepts anyone's. Press Enter after each."
      >
        {(aria) => (
          <ChipsInput
            {...aria}
            aria-invalid={aria['aria-invalid'] ?? (chips.problem ? true : undefined)}
            chips={chips}
            items={values.clipCreators}
            listLabel="Clip creators"
            max={CLIP_CREATORS_MAX}
            name="clip_creator"
            placeholder="e.g. trusted_mod"
            spellCheck={false}
          />
        )}
      </Field>
      <SwitchRow
        id="streamer-featured-only"
        label="Featured clips only"
        description="Only the clips the streamer featured on Twitch."
        checked={values.featuredOnly}
        onCheckedChange={(featuredOnly) => onChange({ featuredOnly })}
      />
    </fieldset>
  );
}

export function AutomationFields({ values, onChange }: FieldsProps) {
  return (
    <>
      <SwitchRow
        id="streamer-auto-subtitle"
        label="Auto subtitles"
        description="Burn subtitles into every new clip."
        checked={values.autoSubtitle}
        onCheckedChange={(autoSubtitle) => onChange({ autoSubtitle })}
      />
      <SwitchRow
        id="streamer-auto-publish"
        label="Auto publish"
        description="Post new clips to the linked accounts."
        checked={values.autoPublish}
        onCheckedChange={(autoPublish) => onChange({ autoPublish })}
      >
        {values.autoPublish && (
          <div className="mt-3 space-y-2">
            <span id="streamer-publish-mode-label" className="text-sm font-medium">
              New clips
            </span>
            <SegmentedControl
              labelledBy="streamer-publish-mode-label"
              name="publish_mode"
              value={values.publishMode}
              options={PUBLISH_OPTIONS}
              onValueChange={(publishMode) => onChange({ publishMode })}
            />
          </div>
        )}
      </SwitchRow>
    </>
  );
}

/** Live chat moments: whether the streamer's chat is read while it streams, and how strong a moment must be to be clipped. */
export function MomentsFields({ values, errors, onChange }: FieldsProps) {
  const percent = values.momentThresholdPercent;
  const describedBy = errors.momentThreshold ? 'streamer-moment-threshold-error' : 'streamer-moment-threshold-hint';
  return (
    <fieldset className="space-y-3">
      <legend className="mb-3 text-sm font-semibold">Moments</legend>
      <div className="rounded-lg border">
        <SwitchRow
          id="streamer-watch-live"
          label="Watch live chat for moments"
          description="While the streamer is live, Clipshift reads the public chat and clips what it reacts to."
          checked={values.watchLive}
          onCheckedChange={(watchLive) => onChange({ watchLive })}
        >
          <div className="mt-4 space-y-2">
            <Label htmlFor="streamer-moment-threshold" className={cn(!values.watchLive && 'cursor-not-allowed text-muted-foreground')}>
              <span>
                Clip moments scoring at least <span className="tabular-nums">{percent}%</span>
              </span>
            </Label>
            <Slider
              id="streamer-moment-threshold"
              name="moment_threshold"
              min={0}
              max={100}
              step={1}
              value={percent}
              disabled={!values.watchLive}
              aria-valuetext={`${percent}%`}
              aria-describedby={describedBy}
              aria-invalid={errors.momentThreshold ? true : undefined}
              onValueChange={(momentThresholdPercent) => onChange({ momentThresholdPercent })}
            />
            {errors.momentThreshold ? (
              <p id="streamer-moment-threshold-error" className="text-xs font-medium text-destructive" data-testid="field-error">
                {errors.momentThreshold}
              </p>
            ) : (
              <p id="streamer-moment-threshold-hint" className="text-xs text-muted-foreground">
                {values.watchLive ? 'Lower clips more of chat’s reactions; higher only the biggest.' : 'Turn on watching to choose which moments become clips.'}
              </p>
            )}
          </div>
        </SwitchRow>
      </div>
    </fieldset>
  );
}
