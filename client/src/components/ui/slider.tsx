import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

type SliderProps = Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange'> & {
  value: number;
  onValueChange: (value: number) => void;
};

/**
 * A native range input in the theme's colours: keyboard, touch and screen readers work as the
 * browser makes them work, with no script of ours in between.
 */
export function Slider({ className, value, onValueChange, ...props }: SliderProps) {
  return (
    <input
      type="range"
      data-slot="slider"
      value={value}
      onChange={(event) => onValueChange(Number(event.target.value))}
      className={cn(
        'h-5 w-full min-w-0 cursor-pointer accent-brand outline-none focus-visible:ring-3 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    />
  );
}
