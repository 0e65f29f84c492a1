import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { MIN_TRIM_SECONDS } from '@clipshift/shared';
import { cn } from '@/lib/utils';

/** Arrow keys move a handle by a tenth of a second, Page Up/Down by a whole one. */
const FINE_STEP = 0.1;
const COARSE_STEP = 1;

const tenth = (seconds: number) => Math.round(seconds * 10) / 10;

/** "0:07.3": trim points are chosen to the tenth of a second. */
export function formatSeconds(seconds: number): string {
  const total = Math.max(0, tenth(seconds));
  const minutes = Math.floor(total / 60);
  const rest = (total - minutes * 60).toFixed(1).padStart(4, '0');
  return `${minutes}:${rest}`;
}

type Handle = 'start' | 'end';

interface TrimTimelineProps {
  duration: number;
  start: number;
  end: number;
  onChange: (start: number, end: number) => void;
  /** Where the player is, in seconds of the source; null when unknown. */
  playhead: number | null;
  /** The part of the source the current video shows (what the player can play). */
  rendered: { start: number; end: number };
}

/**
 * The source's timeline with the kept part between two handles. Each handle is a slider: drag it,
 * or focus it and use the arrow keys; the kept part never gets shorter than MIN_TRIM_SECONDS.
 */
export function TrimTimeline({ duration, start, end, onChange, playhead, rendered }: TrimTimelineProps) {
  const trackRef = useRef<HTMLDivElement>(null);
  const dragging = useRef<{ handle: Handle; pointerId: number } | null>(null);
  const share = (seconds: number) => `${(Math.min(duration, Math.max(0, seconds)) / duration) * 100}%`;

  const place = (handle: Handle, seconds: number) => {
    const value = tenth(seconds);
    if (handle === 'start') onChange(Math.max(0, Math.min(value, end - MIN_TRIM_SECONDS)), end);
    else onChange(start, Math.min(duration, Math.max(value, start + MIN_TRIM_SECONDS)));
  };
  const secondsAt = (clientX: number) => {
    const track = trackRef.current?.getBoundingClientRect();
    if (!track || track.width === 0) return 0;
    return ((clientX - track.left) / track.width) * duration;
  };
  const onPointerDown = (handle: Handle) => (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    dragging.current = { handle, pointerId: event.pointerId };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const drag = dragging.current;
    if (drag && drag.pointerId === event.pointerId) place(drag.handle, secondsAt(event.clientX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current?.pointerId === event.pointerId) dragging.current = null;
  };
  const onKeyDown = (handle: Handle) => (event: KeyboardEvent<HTMLDivElement>) => {
    const value = handle === 'start' ? start : end;
    const steps: Record<string, number> = {
      ArrowLeft: value - FINE_STEP,
      ArrowDown: value - FINE_STEP,
      ArrowRight: value + FINE_STEP,
      ArrowUp: value + FINE_STEP,
      PageDown: value - COARSE_STEP,
      PageUp: value + COARSE_STEP,
      Home: 0,
      End: duration,
    };
    const next = steps[event.key];
    if (next === undefined) return;
    event.preventDefault();
    place(handle, next);
  };

  const handle = (which: Handle) => {
    const value = which === 'start' ? start : end;
    return (
      <div
        role="slider"
        tabIndex={0}
        aria-label={which === 'start' ? 'Trim start' : 'Trim end'}
        aria-valuemin={which === 'start' ? 0 : tenth(start + MIN_TRIM_SECONDS)}
        aria-valuemax={which === 'start' ? tenth(end - MIN_TRIM_SECONDS) : tenth(duration)}
        aria-valuenow={tenth(value)}
        aria-valuetext={`${formatSeconds(value)} of ${formatSeconds(duration)}`}
        data-testid={`trim-${which}`}
        onPointerDown={onPointerDown(which)}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown(which)}
        className="absolute top-1/2 z-10 flex h-11 w-7 -translate-x-1/2 -translate-y-1/2 cursor-ew-resize touch-none items-center justify-center rounded-md outline-none focus-visible:ring-3 focus-visible:ring-ring/50"
        style={{ left: share(value) }}
      >
        <span className="h-8 w-2.5 rounded-sm border-2 border-background bg-brand shadow" />
      </div>
    );
  };

  return (
    <div className="px-3.5">
      <div ref={trackRef} className="relative h-11" data-testid="trim-timeline">
        <div className="absolute inset-x-0 top-1/2 h-3 -translate-y-1/2 rounded-full bg-muted" />
        {/* What the current video covers: the player can only show that part. */}
        <div
          className="absolute top-1/2 h-3 -translate-y-1/2 rounded-full bg-foreground/15"
          style={{ left: share(rendered.start), width: `calc(${share(rendered.end)} - ${share(rendered.start)})` }}
        />
        <div
          className="absolute top-1/2 h-3 -translate-y-1/2 bg-brand/50"
          style={{ left: share(start), width: `calc(${share(end)} - ${share(start)})` }}
        />
        {playhead !== null && (
          <div aria-hidden="true" data-testid="trim-playhead" className="absolute top-1 bottom-1 w-0.5 -translate-x-1/2 bg-foreground" style={{ left: share(playhead) }} />
        )}
        {handle('start')}
        {handle('end')}
      </div>
      <div className={cn('flex justify-between text-xs text-muted-foreground tabular-nums')}>
        <span>0:00.0</span>
        <span>{formatSeconds(duration)}</span>
      </div>
    </div>
  );
}
