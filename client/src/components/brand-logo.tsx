import { cn } from '@/lib/utils';
import { SITE_NAME } from '@/lib/site';

/** A vertical frame with a play mark: a horizontal clip shifted into a short. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-7', className)}>
      <rect width="32" height="32" rx="8" className="fill-brand" />
      <rect x="11" y="6" width="10" height="20" rx="2.5" fill="none" stroke="white" strokeWidth="2.2" />
      <path d="M14.5 13v6l5-3z" fill="white" />
    </svg>
  );
}

export function BrandLogo({ className }: { className?: string }) {
  return (
    <span className={cn('flex items-center gap-2 text-lg font-semibold tracking-tight', className)}>
      <BrandMark />
      {SITE_NAME}
    </span>
  );
}
