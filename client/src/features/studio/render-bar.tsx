import { useEffect, useRef } from 'react';
import { Clapperboard, LoaderCircle, Square } from 'lucide-react';
import { toast } from 'sonner';
import { isRenderActive, renderProgressLabel, type ClipRender } from '@clipshift/shared';
import { studioMessages } from '@/api/studio';
import { ProgressLine } from '@/components/progress-line';
import { Button } from '@/components/ui/button';
import { renderEnding, type RenderMoment } from './render-ending';

interface RenderBarProps {
  render: ClipRender;
  starting: boolean;
  stopping: boolean;
  /** Saving first (unsaved changes) or starting: the button waits. */
  busy: boolean;
  disabled: boolean;
  onRender: () => void;
  onStop: () => void;
}

/** "Render again", then the render's stage and percent with a Stop button, or why it failed. */
export function RenderButton({ render, busy, disabled, onRender }: Pick<RenderBarProps, 'render' | 'busy' | 'disabled' | 'onRender'>) {
  const active = isRenderActive(render);
  return (
    <Button type="button" variant="outline" onClick={onRender} disabled={disabled || busy || active} aria-busy={busy || active}>
      {busy || active ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Clapperboard aria-hidden="true" />}
      Render again
    </Button>
  );
}

export function RenderProgress({ render, stopping, onStop }: Pick<RenderBarProps, 'render' | 'stopping' | 'onStop'>) {
  if (isRenderActive(render)) {
    return (
      <div className="flex items-center gap-3 rounded-lg border bg-card px-4 py-3" aria-live="polite">
        <div className="min-w-0 flex-1">
          <ProgressLine what="Render" label={renderProgressLabel(render)} percent={render.percent} testId="render-progress" />
        </div>
        <Button type="button" variant="outline" size="sm" onClick={onStop} disabled={stopping}>
          <Square aria-hidden="true" />
          Stop
        </Button>
      </div>
    );
  }
  if (render.status === 'failed') {
    return (
      <p role="alert" className="rounded-lg border border-danger-border bg-danger-soft px-4 py-3 text-sm text-danger-soft-foreground" data-testid="render-failed">
        The last render failed{render.error ? `: ${render.error}` : '.'} The video shown is the one before it.
      </p>
    );
  }
  return null;
}

/** Says when a render the page watched ends: the new video is ready, or why it failed. */
export function useRenderEndingToast(render: ClipRender, updatedAt: string): void {
  const previous = useRef<RenderMoment | null>(null);
  useEffect(() => {
    const now = { render, updatedAt };
    const ending = renderEnding(previous.current, now);
    previous.current = now;
    if (ending === 'finished') toast.success(studioMessages.rendered);
    else if (ending === 'failed') toast.error(render.error ?? studioMessages.renderEndedFailed);
  }, [render, updatedAt]);
}
