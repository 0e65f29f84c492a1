import { isRenderActive, isUploadInProgress, renderProgressLabel, uploadProgressLabel, type Clip } from '@clipshift/shared';
import { ProgressLine } from '@/components/progress-line';
import { cn } from '@/lib/utils';

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
