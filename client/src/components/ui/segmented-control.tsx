import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  description?: string;
  icon?: ReactNode;
}

interface SegmentedControlProps<T extends string> {
  /** The group's accessible name (shown by the form's own label, linked with `labelledBy`). */
  labelledBy: string;
  name?: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onValueChange: (value: T) => void;
  disabled?: boolean;
  describedBy?: string;
  className?: string;
}

/**
 * A radio group drawn as side-by-side tiles. Native radios underneath: arrow keys, form semantics
 * and screen readers work as for any radio group.
 */
export function SegmentedControl<T extends string>({
  labelledBy,
  name,
  value,
  options,
  onValueChange,
  disabled = false,
  describedBy,
  className,
}: SegmentedControlProps<T>) {
  const fallbackName = useId();
  return (
    <div
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-disabled={disabled || undefined}
      className={cn('grid gap-2', options.length === 2 && 'grid-cols-2', className)}
    >
      {options.map((option) => (
        <label
          key={option.value}
          className={cn(
            'relative flex cursor-pointer items-start gap-2.5 rounded-lg border bg-background px-3 py-2.5 text-sm shadow-xs transition-colors',
            'has-[:checked]:border-brand has-[:checked]:bg-brand-soft has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-ring/30',
            disabled ? 'cursor-not-allowed opacity-50' : 'hover:bg-accent/60',
          )}
        >
          <input
            type="radio"
            // Invisible but covering the whole tile, so a click anywhere on it lands on the radio itself.
            className="peer absolute inset-0 m-0 size-full cursor-pointer appearance-none rounded-lg opacity-0 disabled:cursor-not-allowed"
            name={name ?? fallbackName}
            value={option.value}
            checked={value === option.value}
            disabled={disabled}
            onChange={() => onValueChange(option.value)}
          />
          {option.icon && <span className="mt-0.5 text-muted-foreground peer-checked:text-brand-text [&_svg]:size-4">{option.icon}</span>}
          <span className="min-w-0">
            <span className="block font-medium leading-5">{option.label}</span>
            {option.description && <span className="block text-xs text-muted-foreground">{option.description}</span>}
          </span>
        </label>
      ))}
    </div>
  );
}
