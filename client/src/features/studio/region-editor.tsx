import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from 'react';
import type { Rect } from '@clipshift/shared';
import { cn } from '@/lib/utils';
import { CORNERS, describeRect, moveRect, rectAfterKey, resizeRect, type Corner } from './region-geometry';

export interface RegionSpec {
  id: 'facecam' | 'gameplay';
  label: string;
  rect: Rect;
  /** Border and label colours: the two regions must never be confused. */
  tone: 'facecam' | 'gameplay';
}

const TONES = {
  facecam: { border: 'border-amber-400', fill: 'bg-amber-400/15', label: 'top-0 left-0 rounded-br bg-amber-400 text-black', handle: 'bg-amber-400' },
  // Its label sits at the bottom: the facecam usually lies in a top corner of the gameplay.
  gameplay: { border: 'border-sky-400', fill: 'bg-sky-400/10', label: 'bottom-0 left-0 rounded-tr bg-sky-400 text-black', handle: 'bg-sky-400' },
} as const;

const HANDLE_PLACE: Record<Corner, string> = {
  nw: 'top-0 left-0 -translate-x-1/2 -translate-y-1/2 cursor-nwse-resize',
  ne: 'top-0 right-0 translate-x-1/2 -translate-y-1/2 cursor-nesw-resize',
  sw: 'bottom-0 left-0 -translate-x-1/2 translate-y-1/2 cursor-nesw-resize',
  se: 'bottom-0 right-0 translate-x-1/2 translate-y-1/2 cursor-nwse-resize',
};

interface Drag {
  pointerId: number;
  mode: 'move' | Corner;
  startX: number;
  startY: number;
  start: Rect;
}

interface RegionBoxProps {
  region: RegionSpec;
  frameRef: RefObject<HTMLDivElement | null>;
  hintId: string;
  onChange: (rect: Rect) => void;
  /** Takes focus (and comes into view) when this turns true: the region handed over for adjusting. */
  focused: boolean;
}

/** One region: drag its body to move it, a corner to resize it, or use the arrow keys. */
function RegionBox({ region, frameRef, hintId, onChange, focused }: RegionBoxProps) {
  const drag = useRef<Drag | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const tone = TONES[region.tone];
  const { rect } = region;
  useEffect(() => {
    if (!focused) return;
    box.current?.focus({ preventScroll: true });
    box.current?.scrollIntoView({ block: 'nearest' });
  }, [focused]);

  const begin = (mode: Drag['mode']) => (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId, mode, startX: event.clientX, startY: event.clientY, start: rect };
    // Focus follows the pointer, so the keyboard carries on with the region just touched.
    (event.currentTarget.closest('[data-region]') as HTMLElement | null)?.focus({ preventScroll: true });
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    const frame = frameRef.current?.getBoundingClientRect();
    if (!current || current.pointerId !== event.pointerId || !frame || frame.width === 0 || frame.height === 0) return;
    const dx = (event.clientX - current.startX) / frame.width;
    const dy = (event.clientY - current.startY) / frame.height;
    onChange(current.mode === 'move' ? moveRect(current.start, dx, dy) : resizeRect(current.start, current.mode, dx, dy));
  };
  const end = (event: PointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = rectAfterKey(rect, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    onChange(next);
  };
  const pointerHandlers = { onPointerMove: move, onPointerUp: end, onPointerCancel: end };

  return (
    // eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions -- a region is a two-dimensional drag widget that no ARIA widget role describes: a named group moved with the arrow keys (described by hintId).
    <div
      ref={box}
      data-region={region.id}
      data-testid={`region-${region.id}`}
      role="group"
      // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- the arrow keys move the region, so it takes focus (see the line above).
      tabIndex={0}
      aria-label={`${region.label} region: ${describeRect(rect)}`}
      aria-describedby={hintId}
      onKeyDown={onKeyDown}
      onPointerDown={begin('move')}
      {...pointerHandlers}
      className={cn(
        'absolute cursor-move touch-none border-2 outline-none focus-visible:ring-4 focus-visible:ring-ring/60',
        tone.border,
        tone.fill,
      )}
      style={{ left: `${rect.x * 100}%`, top: `${rect.y * 100}%`, width: `${rect.w * 100}%`, height: `${rect.h * 100}%` }}
    >
      <span aria-hidden="true" className={cn('pointer-events-none absolute px-1.5 py-0.5 text-[11px] leading-none font-semibold', tone.label)}>
        {region.label}
      </span>
      {CORNERS.map((corner) => (
        // A 28 px touch target around a 12 px dot: fingers at 390 px wide can grab it.
        <span
          key={corner}
          aria-hidden="true"
          data-handle={corner}
          onPointerDown={begin(corner)}
          {...pointerHandlers}
          className={cn('absolute z-10 flex size-7 touch-none items-center justify-center', HANDLE_PLACE[corner])}
        >
          <span className={cn('size-3 rounded-full border-2 border-white shadow', tone.handle)} />
        </span>
      ))}
    </div>
  );
}

/** What camera detection found: shown dashed, to be taken as the facecam region or left. */
export interface FoundCamera {
  rect: Rect;
  confidence: number;
}

/** "Found camera (87% sure)": the found rectangle's label, on the frame and in words. */
export function foundCameraLabel(confidence: number): string {
  return `Found camera (${Math.round(confidence * 100)}% sure)`;
}

/**
 * The found camera: dashed and in its own colour so it is never taken for a region the user drew;
 * it cannot be dragged until it is taken. Its label sits outside the box on the side with room.
 */
function FoundCameraBox({ found }: { found: FoundCamera }) {
  const { rect } = found;
  const label = foundCameraLabel(found.confidence);
  return (
    <div
      role="img"
      aria-label={`${label}: ${describeRect(rect)}`}
      data-testid="found-camera"
      className="pointer-events-none absolute border-2 border-dashed border-emerald-400 bg-emerald-400/15"
      style={{ left: `${rect.x * 100}%`, top: `${rect.y * 100}%`, width: `${rect.w * 100}%`, height: `${rect.h * 100}%` }}
    >
      <span
        aria-hidden="true"
        className={cn(
          'absolute rounded bg-emerald-400 px-1.5 py-0.5 text-[11px] leading-none font-semibold whitespace-nowrap text-black',
          rect.x + rect.w / 2 > 0.5 ? 'right-0' : 'left-0',
          rect.y > 0.15 ? 'bottom-full mb-1' : 'top-full mt-1',
        )}
      >
        {label}
      </span>
    </div>
  );
}

interface RegionEditorProps {
  frameUrl: string | null;
  frameAlt: string;
  regions: readonly RegionSpec[];
  onChange: (id: RegionSpec['id'], rect: Rect) => void;
  /** Drawn over the frame under the regions (the crop window). */
  overlay?: ReactNode;
  loading: boolean;
  error: string | null;
  /** Hears the source's width / height once a frame has loaded. */
  onAspect?: (aspect: number) => void;
  /** The camera detection found, drawn dashed (the `auto` layout with no region drawn). */
  found?: FoundCamera | null;
  /** The region to give the keyboard focus to (after "Adjust"). */
  focusId?: RegionSpec['id'] | null;
}

/** Twitch clips are 16:9; the box keeps that shape until the first frame says otherwise. */
const DEFAULT_ASPECT = 16 / 9;

/** The source frame with the regions over it, as fractions of the frame. */
export function RegionEditor({ frameUrl, frameAlt, regions, onChange, overlay, loading, error, onAspect, found, focusId }: RegionEditorProps) {
  const frameRef = useRef<HTMLDivElement>(null);
  const [aspect, setAspect] = useState(DEFAULT_ASPECT);
  const loaded = (image: HTMLImageElement) => {
    if (image.naturalWidth === 0 || image.naturalHeight === 0) return;
    const next = image.naturalWidth / image.naturalHeight;
    setAspect(next);
    onAspect?.(next);
  };
  const hintId = useId();
  return (
    <div className="space-y-2">
      <div
        ref={frameRef}
        data-testid="source-frame"
        aria-busy={loading}
        className="relative mx-auto overflow-hidden rounded-lg bg-black select-none"
        // A portrait source would otherwise be screens tall: its height is kept to 60% of the window.
        style={{ aspectRatio: aspect, width: `min(100%, calc(60vh * ${aspect.toFixed(4)}))` }}
      >
        {frameUrl && <img src={frameUrl} alt={frameAlt} draggable={false} onLoad={(event) => loaded(event.currentTarget)} className="absolute inset-0 size-full object-fill" />}
        {overlay}
        {found && <FoundCameraBox found={found} />}
        {regions.map((region) => (
          <RegionBox key={region.id} region={region} frameRef={frameRef} hintId={hintId} onChange={(rect) => onChange(region.id, rect)} focused={focusId === region.id} />
        ))}
        {error && (
          <p role="alert" className="absolute inset-x-2 bottom-2 rounded bg-background px-2 py-1 text-xs text-destructive">
            {error}
          </p>
        )}
      </div>
      <p id={hintId} className={cn('text-xs text-muted-foreground', regions.length === 0 && 'sr-only')}>
        Drag a region to move it and its corners to resize it. With a region focused, arrow keys move it and Shift + arrow keys resize it.
      </p>
    </div>
  );
}
