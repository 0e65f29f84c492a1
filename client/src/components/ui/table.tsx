import { createContext, useContext, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/*
 * A table may be "stacked": below the md breakpoint each row becomes a card of its cells, one
 * under the other, with the column's name (a cell's `label`) beside each value, so no action of a
 * row sits beyond the right edge of a phone. The CSS display changes there, so the table roles are
 * given explicitly: assistive technology still reads a table.
 */
const StackedContext = createContext(false);

function useStacked(): boolean {
  return useContext(StackedContext);
}

export function Table({ className, stacked = false, ...props }: ComponentProps<'table'> & { stacked?: boolean }) {
  return (
    <StackedContext.Provider value={stacked}>
      <div data-slot="table-container" className={cn('relative w-full', stacked ? 'md:overflow-x-auto' : 'overflow-x-auto')}>
        <table
          data-slot="table"
          role={stacked ? 'table' : undefined}
          className={cn('w-full caption-bottom text-sm', stacked && 'max-md:block', className)}
          {...props}
        />
      </div>
    </StackedContext.Provider>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  const stacked = useStacked();
  return (
    <thead
      data-slot="table-header"
      role={stacked ? 'rowgroup' : undefined}
      className={cn('[&_tr]:border-b', stacked && 'max-md:sr-only', className)}
      {...props}
    />
  );
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  const stacked = useStacked();
  return (
    <tbody
      data-slot="table-body"
      role={stacked ? 'rowgroup' : undefined}
      className={cn('[&_tr:last-child]:border-0', stacked && 'max-md:block', className)}
      {...props}
    />
  );
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  const stacked = useStacked();
  return (
    <tr
      data-slot="table-row"
      role={stacked ? 'row' : undefined}
      className={cn(
        'border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted',
        stacked && 'max-md:flex max-md:flex-col max-md:gap-1.5 max-md:px-4 max-md:py-3',
        className,
      )}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  const stacked = useStacked();
  return (
    <th
      data-slot="table-head"
      role={stacked ? 'columnheader' : undefined}
      className={cn('h-10 px-3 text-left align-middle text-xs font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase', className)}
      {...props}
    />
  );
}

/** `label`: the column's name, shown beside the value when the table is stacked. */
export function TableCell({ className, label, ...props }: ComponentProps<'td'> & { label?: string }) {
  const stacked = useStacked();
  return (
    <td
      data-slot="table-cell"
      data-label={label}
      role={stacked ? 'cell' : undefined}
      className={cn(
        'px-3 py-2.5 align-middle whitespace-nowrap',
        stacked && 'max-md:flex max-md:min-w-0 max-md:items-center max-md:justify-between max-md:gap-3 max-md:p-0 max-md:whitespace-normal',
        stacked && label && "max-md:before:shrink-0 max-md:before:text-xs max-md:before:font-medium max-md:before:tracking-wide max-md:before:text-muted-foreground max-md:before:uppercase max-md:before:content-[attr(data-label)]",
        className,
      )}
      {...props}
    />
  );
}
