import { LayoutGrid, List } from 'lucide-react';
import { cn } from '@/lib/utils';
import type { ClipView } from './use-clip-view';

const VIEWS: readonly { value: ClipView; label: string; icon: typeof LayoutGrid }[] = [
  { value: 'cards', label: 'Card view', icon: LayoutGrid },
  { value: 'list', label: 'List view', icon: List },
];

/** Two pressed/unpressed buttons side by side. */
export function ClipViewToggle({ view, onViewChange }: { view: ClipView; onViewChange: (view: ClipView) => void }) {
  return (
    <div role="group" aria-label="View" className="inline-flex h-8 items-center rounded-md border bg-background p-0.5 shadow-xs">
      {VIEWS.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          onClick={() => onViewChange(value)}
          title={label}
          className={cn(
            'inline-flex h-full cursor-pointer items-center gap-1.5 rounded-[5px] px-2.5 text-xs font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring/50',
            view === value ? 'bg-brand-soft text-brand-soft-foreground' : 'text-muted-foreground hover:text-foreground',
          )}
        >
          <Icon className="size-3.5" aria-hidden="true" />
          <span className="hidden sm:inline">{label}</span>
          <span className="sr-only sm:hidden">{label}</span>
        </button>
      ))}
    </div>
  );
}
