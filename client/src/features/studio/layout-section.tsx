import { useId } from 'react';
import { CLIP_FORMAT_LABELS, CLIP_FORMATS, LAYOUTS, LAYOUT_LABELS, MAX_SPLIT_RATIO, MIN_SPLIT_RATIO, type ClipFormat, type Layout, type Rect } from '@clipshift/shared';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Label } from '@/components/ui/label';
import { CameraPanel, type CameraLook } from './camera-panel';
import { SectionHeader, SliderField, SourceTag, SwitchField } from './studio-controls';
import { sectionIsOwn, showsLayouts, STARTING_FACECAM } from './studio-draft';
import type { StudioEditor } from './use-studio-editor';

const FORMAT_DESCRIPTIONS: Record<ClipFormat, string> = {
  vertical: '9:16 for phones, framed with a layout',
  horizontal: 'The picture as streamed, 16:9',
};

/** A clip's own format: vertical with a layout, or the source's picture (null = as downloaded). */
function FormatField({ editor }: { editor: StudioEditor }) {
  const { mode, draft, values, set } = editor;
  const labelId = useId();
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2">
        <Label id={labelId}>Format</Label>
        <SourceTag mode={mode} own={draft.format !== null} fallback="As downloaded" />
      </div>
      <SegmentedControl
        labelledBy={labelId}
        value={values.format}
        onValueChange={(format) => set('format', format)}
        options={CLIP_FORMATS.map((format) => ({ value: format, label: CLIP_FORMAT_LABELS[format], description: FORMAT_DESCRIPTIONS[format] }))}
      />
    </div>
  );
}

function sectionDescription(mode: StudioEditor['mode'], vertical: boolean): string {
  if (mode === 'streamer') return 'How the 16:9 picture fills the 9:16 video.';
  return vertical ? 'Vertical or horizontal, and how the 16:9 picture fills the 9:16 video.' : 'Kept horizontal: the picture as streamed. Choose Vertical to frame it with a layout.';
}

const LAYOUT_DESCRIPTIONS: Record<Layout, string> = {
  auto: "Finds the streamer's camera in each clip: facecam over gameplay when there is one, blurred background when not",
  blur: 'The whole picture over a blurred copy of itself',
  crop: 'A 9:16 window of the picture, moved with the focus',
  split: 'The facecam on top, the gameplay below',
};

const percent = (value: number) => `${Math.round(value * 100)}%`;

interface LayoutSectionProps {
  editor: StudioEditor;
  /** The camera the `auto` layout finds. */
  look: CameraLook;
  /** Takes a found camera as the facecam region. */
  onUseCamera: (rect: Rect, adjust: boolean) => void;
}

/**
 * A clip's format, then (for a vertical one) the layout, crop focus, split ratio and the facecam
 * switch; the regions are drawn on the frame, and for `auto` the camera found is shown there.
 */
export function LayoutSection({ editor, look, onUseCamera }: LayoutSectionProps) {
  const { mode, draft, values } = editor;
  const vertical = showsLayouts(mode, values);
  return (
    <section className="space-y-5" aria-label="Layout">
      <SectionHeader
        title="Layout"
        description={sectionDescription(mode, vertical)}
        mode={mode}
        own={sectionIsOwn(draft, 'layout')}
        onReset={() => editor.reset('layout')}
      />
      {mode === 'clip' && <FormatField editor={editor} />}
      {vertical && <VerticalLayoutFields editor={editor} look={look} onUseCamera={onUseCamera} />}
    </section>
  );
}

/** The vertical picture's layout and its settings. */
function VerticalLayoutFields({ editor, look, onUseCamera }: LayoutSectionProps) {
  const { mode, draft, values, set } = editor;
  const labelId = useId();
  const chooseLayout = (layout: Layout) => {
    // Split needs a facecam: start from the usual corner rather than have the save refused.
    if (layout === 'split' && !values.facecam) editor.patch({ layout, facecam: STARTING_FACECAM });
    else set('layout', layout);
  };
  return (
    <>
      <div className="space-y-2">
        <div className="flex items-center gap-2">
          <Label id={labelId}>Layout</Label>
          <SourceTag mode={mode} own={draft.layout !== null} />
        </div>
        <SegmentedControl
          labelledBy={labelId}
          value={values.layout}
          onValueChange={chooseLayout}
          options={LAYOUTS.map((layout) => ({ value: layout, label: LAYOUT_LABELS[layout], description: LAYOUT_DESCRIPTIONS[layout] }))}
          className="sm:grid-cols-2"
        />
      </div>
      {values.layout === 'auto' && <CameraPanel editor={editor} look={look} onUse={onUseCamera} />}
      {values.layout === 'crop' && (
        <SliderField
          label="Crop focus"
          value={values.crop_focus}
          min={0}
          max={1}
          step={0.01}
          format={(value) => (value < 0.34 ? `Left ${percent(value)}` : value > 0.66 ? `Right ${percent(value)}` : `Centre ${percent(value)}`)}
          onChange={(value) => set('crop_focus', value)}
          tag={<SourceTag mode={mode} own={draft.crop_focus !== null} />}
          hint="Where the 9:16 window sits across the picture (shown on the frame)."
        />
      )}
      {(values.layout === 'split' || values.layout === 'auto') && (
        <SliderField
          label="Facecam height"
          value={values.split_ratio}
          min={MIN_SPLIT_RATIO}
          max={MAX_SPLIT_RATIO}
          step={0.01}
          format={(value) => `${percent(value)} of the video`}
          onChange={(value) => set('split_ratio', value)}
          tag={<SourceTag mode={mode} own={draft.split_ratio !== null} />}
          hint={values.layout === 'auto' ? "The share of the video's height the camera takes at the top, when one is found." : "The share of the video's height the facecam takes at the top."}
        />
      )}
      {values.layout === 'split' && (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">Regions</span>
            <span className="text-muted-foreground">Facecam</span>
            <SourceTag mode={mode} own={draft.facecam !== null} />
            <span className="text-muted-foreground">Gameplay</span>
            <SourceTag mode={mode} own={draft.gameplay !== null} />
          </div>
          {mode === 'clip' && (
            <SwitchField
              label="Facecam off for this clip"
              description="Only the gameplay, for a clip where the camera shows nothing useful."
              checked={values.facecam_off}
              onChange={(checked) => set('facecam_off', checked)}
              tag={<SourceTag mode={mode} own={draft.facecam_off !== null} />}
            />
          )}
        </>
      )}
    </>
  );
}
