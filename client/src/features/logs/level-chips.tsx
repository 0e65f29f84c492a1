import { LOG_LEVELS, type LogLevel } from '@clipshift/shared';
import { cn } from '@/lib/utils';
import type { LevelFilter } from './log-filters';

const CHIP_COLORS: Record<LogLevel, string> = {
  DEBUG: 'border-slate-200 bg-slate-50 text-slate-700',
  INFO: 'border-violet-200 bg-violet-50 text-violet-700',
  WARNING: 'border-amber-200 bg-amber-50 text-amber-800',
  ERROR: 'border-red-200 bg-red-50 text-red-700',
  CRITICAL: 'border-red-300 bg-red-100 text-red-800',
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
          <span className="rounded-full bg-white/70 px-1.5 font-mono tabular-nums">{counts[level]}</span>
        </button>
      ))}
    </div>
  );
}
