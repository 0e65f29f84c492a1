import { Crosshair, LoaderCircle, Move, ScanSearch } from 'lucide-react';
import type { Rect } from '@clipshift/shared';
import { failureText } from '@/api/errors';
import type { CameraDetection } from '@/api/studio';
import { Button } from '@/components/ui/button';
import { describeRect } from './region-geometry';
import { foundCameraLabel } from './region-editor';
import { looksForCamera } from './studio-draft';
import type { StudioEditor } from './use-studio-editor';

/** What the page knows of the camera `auto` would find, and how to look again. */
export interface CameraLook {
  found: CameraDetection | null;
  looking: boolean;
  error: unknown;
  /** The found camera is the one the clip's last render used (nothing was asked). */
  fromRender: boolean;
  find: () => void;
}

interface CameraPanelProps {
  editor: StudioEditor;
  look: CameraLook;
  /** Takes the found rectangle as the facecam region (split); `adjust`: then hands it over for dragging. */
  onUse: (rect: Rect, adjust: boolean) => void;
}

function whereFound(look: CameraLook): string {
  if (look.fromRender) return 'Found when this clip was last rendered.';
  const checked = look.found?.clips_checked;
  if (checked !== undefined) return `Looked at the streamer's ${checked === 1 ? 'newest clip' : `${checked} newest clips`}.`;
  return 'Looked at this clip.';
}

/** The result of the last look: the rectangle with what to do with it, none, or why it failed. */
function LookResult({ look, onUse }: Pick<CameraPanelProps, 'look' | 'onUse'>) {
  if (look.looking) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
        Looking for the camera…
      </p>
    );
  }
  if (look.error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {failureText(look.error, { fallback: 'Could not look for the camera', offline: 'The server could not be reached' })}
      </p>
    );
  }
  const found = look.found;
  if (!found) return null;
  const camera = found.facecam;
  if (!camera) {
    return (
      <p className="text-sm" data-testid="camera-result">
        <span className="font-medium">No camera found:</span> renders with the blurred background. <span className="text-muted-foreground">{whereFound(look)}</span>
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm" data-testid="camera-result">
        <span className="font-medium">{foundCameraLabel(found.confidence)}</span>, dashed on the frame: {describeRect(camera)}. Renders as facecam + gameplay.{' '}
        <span className="text-muted-foreground">{whereFound(look)}</span>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" variant="brand" onClick={() => onUse(camera, false)}>
          <Crosshair aria-hidden="true" />
          Use this rectangle
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={() => onUse(camera, true)}>
          <Move aria-hidden="true" />
          Adjust
        </Button>
      </div>
    </div>
  );
}

/** Whose drawn rectangle the `auto` layout uses instead of looking, and the way back to looking. */
function DrawnWins({ editor }: { editor: StudioEditor }) {
  const { mode, draft, fallback } = editor;
  const own = draft.facecam !== null;
  // Dropping this page's rectangle lets detection look only when nothing is drawn beneath it.
  const canForget = own && fallback.facecam === null;
  const whose = own ? (mode === 'clip' ? "This clip's" : 'Your') : "The streamer's";
  return (
    <div className="space-y-2">
      <p className="text-sm" data-testid="camera-result">
        {whose} facecam rectangle is used, so nothing is looked for: a drawn rectangle always wins over detection.
      </p>
      {canForget && (
        <Button type="button" size="sm" variant="outline" onClick={() => editor.set('facecam', null)}>
          <ScanSearch aria-hidden="true" />
          Let detection find it
        </Button>
      )}
    </div>
  );
}

/** The `auto` layout's camera: what detection finds (taken as it is, or adjusted), or the drawn rectangle that wins. */
export function CameraPanel({ editor, look, onUse }: CameraPanelProps) {
  const { values } = editor;
  if (values.facecam_off) return null;
  const looking = looksForCamera(editor.mode, values);
  return (
    <section aria-label="Camera" className="space-y-3 rounded-lg border px-4 py-3" data-testid="camera-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium">Camera</h3>
        {looking && (
          <Button type="button" size="sm" variant="ghost" onClick={look.find} disabled={look.looking}>
            <ScanSearch aria-hidden="true" />
            {look.found || look.error ? 'Look again' : 'Find the camera'}
          </Button>
        )}
      </div>
      {looking ? (
        <>
          <LookResult look={look} onUse={onUse} />
          <p className="text-xs text-muted-foreground">A facecam rectangle you draw always wins over detection: Adjust starts from the found one.</p>
        </>
      ) : (
        <DrawnWins editor={editor} />
      )}
    </section>
  );
}
