import { Check } from 'lucide-react';
import { cn } from '@/lib/utils';
import { WIZARD_STEPS, type WizardStep } from './wizard-rules';

/** Numbered steps joined by lines; done steps are ticked. Narrow screens name only the current one. */
export function StepIndicator({ step }: { step: WizardStep }) {
  return (
    <ol aria-label="Post steps" className="flex shrink-0 items-center gap-2" data-testid="wizard-steps">
      {WIZARD_STEPS.map((label, index) => {
        const number = index + 1;
        const done = number < step;
        const current = number === step;
        return (
          <li key={label} aria-current={current ? 'step' : undefined} className={cn('flex items-center gap-2', index < WIZARD_STEPS.length - 1 && 'flex-1')}>
            <span
              className={cn(
                'flex size-7 shrink-0 items-center justify-center rounded-full border text-xs font-semibold tabular-nums',
                current && 'border-brand bg-brand text-brand-foreground',
                done && 'border-brand bg-brand-soft text-brand-soft-foreground',
                !current && !done && 'text-muted-foreground',
              )}
            >
              {done ? <Check className="size-3.5" strokeWidth={3} aria-hidden="true" /> : number}
            </span>
            <span className={cn('text-xs font-medium whitespace-nowrap', current ? 'text-foreground' : 'sr-only text-muted-foreground sm:not-sr-only')}>
              {label}
              {done && <span className="sr-only"> (done)</span>}
            </span>
            {index < WIZARD_STEPS.length - 1 && <span aria-hidden="true" className={cn('h-px min-w-3 flex-1', done ? 'bg-brand' : 'bg-border')} />}
          </li>
        );
      })}
    </ol>
  );
}
