import { Progress } from '@/components/ui/progress';

interface ProgressLineProps {
  /** What is going on, e.g. "Subtitles" or "@account". */
  what: string;
  /** How far, e.g. "Rendering 37%". */
  label: string;
  percent: number | null;
  testId: string;
}

/** One piece of long work: what, how far in words, and a bar. */
export function ProgressLine({ what, label, percent, testId }: ProgressLineProps) {
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
