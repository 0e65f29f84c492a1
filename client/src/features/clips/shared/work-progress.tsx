import { isRenderActive, isUploadInProgress, renderProgressLabel, uploadProgressLabel, type Clip } from '@clipshift/shared';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';

interface ProgressLineProps {
  /** What is going on, e.g. "Subtitles" or "@account". */
  what: string;
  /** How far, e.g. "Rendering 37%". */
  label: string;
  percent: number | null;
  testId: string;
}

function ProgressLine({ what, label, percent, testId }: ProgressLineProps) {
  return (
    <div className="space-y-1" data-testid={testId}>
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="truncate font-medium">{what}</span>
        <span className="shrink-0 text-muted-foreground tabular-nums">{label}</span>
      </div>
      {/* No percent yet (queued, processing at TikTok): an empty bar rather than a guess. */}
      <Progress value={percent ?? 0} aria-label={`${what}: ${label}`} className="h-1.5" />
    </div>
  );
}

/**
 * The clip's long work as the server reports it: the subtitle job (stage and percent, or why the
 * last attempt failed) and each upload still on its way to TikTok. Nothing when all is quiet.
 */
export function WorkProgress({ clip, className, detailed = false }: { clip: Pick<Clip, 'render' | 'posted_to'>; className?: string; detailed?: boolean }) {
  const { render } = clip;
  // The details list every upload themselves (Posted to TikTok).
  const uploads = detailed ? [] : clip.posted_to.filter((entry) => isUploadInProgress(entry.status));
  const failed = render.status === 'failed';
  if (!isRenderActive(render) && !failed && uploads.length === 0) return null;
  return (
    <div className={cn('space-y-2', className)} aria-live="polite">
      {isRenderActive(render) && <ProgressLine what="Subtitles" label={renderProgressLabel(render)} percent={render.percent} testId="render-progress" />}
      {failed && (
        <p className={cn('text-xs text-destructive', !detailed && 'line-clamp-1')} title={render.error ?? undefined} data-testid="render-failed">
          {detailed && render.error ? render.error : 'Subtitles failed'}
        </p>
      )}
      {uploads.map((entry) => (
        <ProgressLine key={entry.account} what={`TikTok ${entry.account}`} label={uploadProgressLabel(entry)} percent={entry.percent} testId="upload-progress" />
      ))}
    </div>
  );
}
