import { useEffect, useId, useState, type ReactNode } from 'react';
import { useBlocker, useSearchParams } from 'react-router-dom';
import { LoaderCircle, Save } from 'lucide-react';
import { EMPTY_CLIP_EDIT, type ClipDetails, type Rect, type StreamerStudio } from '@clipshift/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Slider } from '@/components/ui/slider';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { studioTabOf } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useCameraDetection, useClipFrame, useClipPreview, useClipRender, useSaveClipEdit, useSaveStreamerStudio, imageFailureText } from '@/api/studio';
import { BrandSection } from './brand-section';
import type { CameraLook } from './camera-panel';
import { HookSection } from './hook-section';
import { CaptionsSection } from './captions-section';
import { LayoutSection } from './layout-section';
import { PreviewPanel } from './preview-panel';
import { RegionEditor, type FoundCamera, type RegionSpec } from './region-editor';
import { RenderButton, RenderProgress, useRenderEndingToast } from './render-bar';
import { clipChanges, looksForCamera, previewRequest, savedDraft, showsLayouts, streamerChanges, type StudioMode } from './studio-draft';
import { AudioSection, DraftProblem, TrimSection } from './trim-audio-section';
import { formatSeconds } from './trim-timeline';
import { TranscriptEditor } from './transcript/transcript-editor';
import { useStudioEditor, type StudioEditor as Editor } from './use-studio-editor';

interface StudioEditorProps {
  mode: StudioMode;
  clip: ClipDetails;
  /** The clip's streamer: its name (for streamer mode's save) and saved settings. */
  streamerName: string;
  /** How the streamer is shown (its Twitch display name). */
  streamerTitle: string;
  streamer: StreamerStudio;
  /** Tells the page (its header) whether there are unsaved changes and how to save them. */
  header: (actions: ReactNode) => ReactNode;
}

/** The 9:16 crop window on the frame, for the crop layout. */
function CropWindow({ focus, aspect }: { focus: number; aspect: number }) {
  const width = Math.min(1, 9 / 16 / aspect);
  const left = (1 - width) * focus;
  return (
    <div
      aria-hidden="true"
      data-testid="crop-window"
      className="pointer-events-none absolute inset-y-0 border-2 border-white shadow-[0_0_0_9999px_rgb(0_0_0/0.55)]"
      style={{ left: `${left * 100}%`, width: `${width * 100}%` }}
    />
  );
}

/** The regions a render uses: split's, and auto's once a facecam rectangle is drawn (it wins over detection). */
function regionsOf(editor: Editor): RegionSpec[] {
  const { values } = editor;
  const drawnAuto = values.layout === 'auto' && values.facecam !== null && !values.facecam_off;
  if (!showsLayouts(editor.mode, values) || !(values.layout === 'split' || drawnAuto)) return [];
  const regions: RegionSpec[] = [{ id: 'gameplay', label: 'Gameplay', rect: values.gameplay, tone: 'gameplay' }];
  // Drawn last so it sits on top: the camera is usually a corner inside the gameplay.
  if (values.facecam && !values.facecam_off) regions.push({ id: 'facecam', label: 'Facecam', rect: values.facecam, tone: 'facecam' });
  return regions;
}

/**
 * The camera the `auto` layout would find while it looks (no rectangle drawn): a clip's last render
 * already says (shown without asking, until "Look again"); otherwise the server is asked once.
 */
function useCameraLook(editor: Editor, clip: ClipDetails, streamerName: string): CameraLook {
  const looking = looksForCamera(editor.mode, editor.values);
  const known = editor.mode === 'clip' ? clip.detected : null;
  const [asked, setAsked] = useState(false);
  const target = editor.mode === 'clip' ? ({ mode: 'clip', clipId: clip.clip_id } as const) : ({ mode: 'streamer', name: streamerName } as const);
  const detection = useCameraDetection(target, looking && (known === null || asked));
  const fromRender = known !== null && !asked;
  return {
    found: fromRender ? known : detection.found,
    looking: !fromRender && detection.looking,
    error: fromRender ? null : detection.error,
    fromRender,
    find: () => {
      setAsked(true);
      detection.find();
    },
  };
}

/** Asks before leaving the page (in the app, or closing the tab) with unsaved changes. */
function useLeaveGuard(dirty: boolean) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return blocker;
}

/** Saves the page's draft: the clip's overrides, or the streamer's defaults. */
function useSaveDraft(editor: Editor, clip: ClipDetails, streamerName: string, streamer: StreamerStudio) {
  const clipSave = useSaveClipEdit(clip.clip_id);
  const streamerSave = useSaveStreamerStudio(streamerName);
  const save = async (quiet = false): Promise<boolean> => {
    if (editor.mode === 'clip') {
      const saved = await clipSave.save(clipChanges(editor.draft), { quiet });
      if (saved) editor.accept(savedDraft('clip', saved.edit, streamer));
      return saved !== null;
    }
    // The server's copy becomes the draft, as for a clip: a value set back to its default is then
    // "not the streamer's own" on both sides, and the page is no longer dirty.
    const saved = await streamerSave.save(streamerChanges(editor.values));
    if (saved) editor.accept(savedDraft('streamer', EMPTY_CLIP_EDIT, saved));
    return saved !== null;
  };
  return { save, saving: clipSave.saving || streamerSave.saving };
}

export function StudioEditor({ mode, clip, streamerName, streamerTitle, streamer, header }: StudioEditorProps) {
  const editor = useStudioEditor({ mode, clipEdit: clip.edit, durationSec: clip.duration, downloadedFormat: clip.downloaded_format, streamer });
  const { values } = editor;
  const [t, setT] = useState(() => Math.round(((clip.trim_start + clip.trim_end) / 2) * 10) / 10);
  const [aspect, setAspect] = useState(16 / 9);
  const frame = useClipFrame(clip.clip_id, t);
  const preview = useClipPreview(clip.clip_id, previewRequest(mode, editor.draft, values, t), clip.updated_at, editor.problem === null);
  const { save, saving } = useSaveDraft(editor, clip, streamerName, streamer);
  const render = useClipRender(clip.clip_id);
  useRenderEndingToast(clip.render, clip.updated_at);
  const blocker = useLeaveGuard(editor.dirty && !saving);
  const scrubberId = useId();
  const look = useCameraLook(editor, clip, streamerName);
  const found: FoundCamera | null = looksForCamera(mode, values) && look.found?.facecam ? { rect: look.found.facecam, confidence: look.found.confidence } : null;
  const [focusRegion, setFocusRegion] = useState<RegionSpec['id'] | null>(null);
  // Taking the found camera draws it: split with it as the facecam, draggable from there on.
  const takeCamera = (rect: Rect, adjust: boolean) => {
    editor.patch({ layout: 'split', facecam: rect });
    setFocusRegion(adjust ? 'facecam' : null);
  };
  const [search] = useSearchParams();
  // A link may open a tab (the clip details' "Edit transcript"); the streamer's studio has no transcript.
  const asked = studioTabOf(search);
  const initialTab = asked && !(asked === 'transcript' && mode !== 'clip') ? asked : 'layout';
  // The preview shows what a render with the page's settings would make.
  const vertical = showsLayouts(mode, values);
  const at = `at ${formatSeconds(t)}`;

  const setRegion = (id: RegionSpec['id'], rect: Rect) => editor.set(id, rect);
  const renderAgain = async () => {
    if (editor.dirty && !(await save(true))) return;
    render.render();
  };

  const actions = (
    <>
      {mode === 'clip' && (
        <RenderButton render={clip.render} busy={render.starting || saving} disabled={editor.problem !== null} onRender={() => void renderAgain()} />
      )}
      <Button type="button" variant="brand" onClick={() => void save()} disabled={!editor.dirty || saving || editor.problem !== null}>
        {saving ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
        {mode === 'clip' ? 'Save' : 'Save streamer defaults'}
      </Button>
    </>
  );

  return (
    <div className="space-y-5">
      {header(actions)}
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
        <span data-testid="dirty-state">{editor.dirty ? 'Unsaved changes' : 'All changes saved'}</span>
      </div>
      <RenderProgress render={clip.render} stopping={render.stopping} onStop={render.stop} />
      <DraftProblem problem={editor.problem} />
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(16rem,22rem)]">
        <section aria-label="Source frame" className="min-w-0 space-y-3 rounded-xl border bg-card p-4 shadow-xs">
          <RegionEditor
            frameUrl={frame.url}
            frameAlt={`Source frame ${at}`}
            regions={regionsOf(editor)}
            onChange={setRegion}
            overlay={vertical && values.layout === 'crop' ? <CropWindow focus={values.crop_focus} aspect={aspect} /> : null}
            loading={frame.loading}
            error={frame.error ? imageFailureText(frame.error) : null}
            onAspect={setAspect}
            found={found}
            focusId={focusRegion}
          />
          <div className="flex items-center gap-3">
            <label htmlFor={scrubberId} className="shrink-0 text-sm font-medium">
              Frame
            </label>
            <Slider id={scrubberId} min={0} max={clip.duration} step={0.1} value={t} onValueChange={setT} aria-valuetext={formatSeconds(t)} />
            <span className="w-14 shrink-0 text-right text-sm text-muted-foreground tabular-nums">{formatSeconds(t)}</span>
          </div>
        </section>
        <div className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <PreviewPanel image={preview} vertical={vertical} at={at} safeZone={values.caption_style.safe_zone} />
        </div>
        <Tabs defaultValue={initialTab} className="min-w-0">
          {/* Rows of three (clip) or two (streamer) on a phone: five tabs in one row would not fit 390 px. */}
          <TabsList className={cn('grid h-auto gap-1', mode === 'clip' ? 'grid-cols-3 sm:grid-cols-5' : 'grid-cols-2 sm:grid-cols-4')}>
            <TabsTrigger value="layout" className="h-8">
              Layout
            </TabsTrigger>
            <TabsTrigger value="captions" className="h-8">
              Captions
            </TabsTrigger>
            <TabsTrigger value="brand" className="h-8">
              Hook & brand
            </TabsTrigger>
            <TabsTrigger value="trim" className="h-8">
              {mode === 'clip' ? 'Trim & audio' : 'Audio'}
            </TabsTrigger>
            {mode === 'clip' && (
              <TabsTrigger value="transcript" className="h-8">
                Transcript
              </TabsTrigger>
            )}
          </TabsList>
          <div className="rounded-xl border bg-card p-4 shadow-xs sm:p-5">
            <TabsContent value="layout">
              <LayoutSection editor={editor} look={look} onUseCamera={takeCamera} />
            </TabsContent>
            <TabsContent value="captions">
              <CaptionsSection editor={editor} />
            </TabsContent>
            <TabsContent value="brand" className="space-y-8">
              <HookSection editor={editor} suggestion={clip.hook_suggestion} />
              <BrandSection editor={editor} streamerName={streamerName} streamerTitle={streamerTitle} clipId={clip.clip_id} />
            </TabsContent>
            <TabsContent value="trim" className="space-y-8">
              {mode === 'clip' && <TrimSection editor={editor} clip={clip} />}
              <AudioSection editor={editor} />
            </TabsContent>
            {mode === 'clip' && (
              <TabsContent value="transcript">
                <TranscriptEditor clipId={clip.clip_id} durationSec={clip.duration} />
              </TabsContent>
            )}
          </div>
        </Tabs>
      </div>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        onOpenChange={(open) => !open && blocker.reset?.()}
        title="Leave without saving?"
        description="Your changes to this clip's studio settings are not saved yet."
        confirmLabel="Leave"
        destructive
        onConfirm={() => blocker.proceed?.()}
      />
    </div>
  );
}

