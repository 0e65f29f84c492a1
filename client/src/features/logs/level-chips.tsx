import { LOG_LEVELS, type LogLevel } from '@clipshift/shared';
import { cn } from '@/lib/utils';
import type { LevelFilter } from './log-filters';

const CHIP_COLORS: Record<LogLevel, string> = {
  DEBUG: 'border-border bg-muted text-muted-foreground',
  INFO: 'border-brand-border bg-brand-soft text-brand-soft-foreground',
  WARNING: 'border-warning-border bg-warning-soft text-warning-soft-foreground',
  ERROR: 'border-danger-border bg-danger-soft text-danger-soft-foreground',
  CRITICAL: 'border-danger-border bg-danger-strong text-danger-soft-foreground',
};

interface LevelChipsProps {
  counts: Record<LogLevel, number>;
  active: LevelFilter;
  onToggle: (level: LogLevel) => void;
}

/** One chip per level that has entries; clicking a chip toggles that level's filter. */
export function LevelChips({ counts, active, onToggle }: LevelChipsProps) {
  const present = LOG_LEVELS.filter((level) => counts[level] > 0);
  if (present.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Log counts by level">
      {present.map((level) => (
        <button
          key={level}
          type="button"
          aria-pressed={active === level}
          onClick={() => onToggle(level)}
          className={cn(
            'inline-flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1 text-xs font-medium transition-all hover:shadow-sm',
            CHIP_COLORS[level],
            active === level && 'ring-2 ring-brand ring-offset-1',
          )}
        >
          {level}
          <span className="rounded-full bg-background/70 px-1.5 font-mono tabular-nums">{counts[level]}</span>
        </button>
      ))}
    </div>
  );
}
