import { runPercent, type StatusEntry } from '@clipshift/shared';
import { Progress } from '@/components/ui/progress';
import { describeClipProgress } from './run-text';

/** The run's overall bar and, under it, each clip being worked on with its stage. */
export function RunProgress({ name, entry }: { name: string; entry: StatusEntry }) {
  const percent = runPercent(entry);
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-3">
        <Progress value={percent} aria-label={`Download progress for ${name}`} className="flex-1" />
        <span className="w-10 text-right font-mono text-xs text-muted-foreground tabular-nums">{percent}%</span>
      </div>
      {entry.progress.length > 0 ? (
        <ul aria-label={`Clips in progress for ${name}`} className="space-y-1 text-xs text-muted-foreground">
          {entry.progress.map((clip) => (
            <li key={clip.clip_id} className="truncate" data-testid="clip-progress">
              {describeClipProgress(clip)}
            </li>
          ))}
        </ul>
      ) : (
        entry.clips_total === 0 && <p className="text-xs text-muted-foreground">Looking for new clips…</p>
      )}
    </div>
  );
}
