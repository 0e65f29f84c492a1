import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface ClipsPaginationProps {
  page: number;
  pageSize: number;
  total: number;
  /** Clips on this page (a deletion can leave fewer than pageSize before the refetch). */
  shown: number;
  onPageChange: (page: number) => void;
  disabled?: boolean;
}

/** "Showing X–Y of N" with Previous and Next. */
export function ClipsPagination({ page, pageSize, total, shown, onPageChange, disabled = false }: ClipsPaginationProps) {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, (page - 1) * pageSize + shown);
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Clip pages" className="flex flex-col items-center justify-between gap-3 sm:flex-row">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Showing {first}–{last} of {total}
      </p>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" disabled={disabled || page <= 1} onClick={() => onPageChange(page - 1)}>
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <span className="text-xs text-muted-foreground tabular-nums">
          Page {page} of {lastPage}
        </span>
        <Button variant="outline" size="sm" disabled={disabled || page >= lastPage} onClick={() => onPageChange(page + 1)}>
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
