import { useId, useState } from 'react';
import { ChevronDown, LoaderCircle } from 'lucide-react';
import { safeZoneRects, type SafeZone } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { imageFailureText, type StudioImage } from '@/api/studio';
import { cn } from '@/lib/utils';

interface PreviewPanelProps {
  image: StudioImage;
  vertical: boolean;
  /** "at 0:03.2": when in the clip the preview shows. */
  at: string;
  /** The platforms' interface the captions keep clear of, outlined over a vertical frame. */
  safeZone?: SafeZone | undefined;
}

/** Dashed outlines of the areas a platform's buttons and captions cover (fractions of the frame). */
function SafeZoneOutline({ zone }: { zone: SafeZone }) {
  const rects = safeZoneRects(zone, { width: 1, height: 1 });
  if (rects.length === 0) return null;
  return (
    <div className="pointer-events-none absolute inset-0" aria-hidden="true" data-testid="safe-zone-outline">
      {rects.map((rect, index) => (
        <div
          key={index}
          className="absolute border border-dashed border-amber-300/80 bg-amber-300/10"
          style={{ left: `${rect.x * 100}%`, top: `${rect.y * 100}%`, width: `${rect.w * 100}%`, height: `${rect.h * 100}%` }}
        />
      ))}
    </div>
  );
}

/**
 * The frame as a render with the page's settings would show it. On a phone it folds away under
 * a button, so the controls are not pushed a whole screen down; from lg up it is always shown.
 */
export function PreviewPanel({ image, vertical, at, safeZone }: PreviewPanelProps) {
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  const headingId = useId();
  const error = image.error ? imageFailureText(image.error) : null;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border bg-card p-4 text-card-foreground shadow-xs lg:sticky lg:top-20">
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          Preview
        </h2>
        <div className="flex items-center gap-2">
          {image.loading && (
            <span className="flex items-center gap-1 text-xs text-muted-foreground" role="status">
              <LoaderCircle className="size-3.5 animate-spin" aria-hidden="true" />
              Updating…
            </span>
          )}
          <Button type="button" variant="ghost" size="sm" className="lg:hidden" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
            {open ? 'Hide' : 'Show'}
            <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
          </Button>
        </div>
      </div>
      <div id={bodyId} className={cn('mt-3 space-y-2', !open && 'hidden lg:block')}>
        <div
          className={cn('relative mx-auto overflow-hidden rounded-lg bg-black', vertical ? 'aspect-[9/16] w-full max-w-[calc(45vh*9/16)] lg:max-w-[min(100%,calc(65vh*9/16))]' : 'aspect-video w-full')}
          data-testid="preview-frame"
        >
          {image.url && <img src={image.url} alt={`Preview of the rendered video ${at}`} className={cn('size-full object-contain transition-opacity', image.loading && 'opacity-70')} />}
          {vertical && safeZone && <SafeZoneOutline zone={safeZone} />}
        </div>
        {error ? (
          <p role="alert" className="text-sm text-destructive" data-testid="preview-error">
            {error}
          </p>
        ) : (
          <p className="text-xs text-muted-foreground">
            The frame {at}, as a render with these settings would show it, captions included.
            {vertical && safeZone && safeZone !== 'none' && ' Dashed areas: where the app’s buttons and captions cover the video.'}
          </p>
        )}
      </div>
    </section>
  );
}
