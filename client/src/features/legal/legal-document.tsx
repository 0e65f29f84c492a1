import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LEGAL_LAST_UPDATED } from '@/lib/site';

interface LegalDocumentProps {
  title: string;
  intro: ReactNode;
  /** The other legal page, which each document links to (spec section 2). */
  related: { to: string; label: string };
  children: ReactNode;
}

const proseClass = [
  'space-y-4 text-[15px] leading-7 text-foreground/90',
  '[&_h2]:mt-10 [&_h2]:scroll-mt-24 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-foreground',
  '[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-foreground',
  '[&_ul]:list-disc [&_ul]:space-y-1.5 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-1.5 [&_ol]:pl-6',
  '[&_a]:font-medium [&_a]:text-brand-text [&_a]:underline-offset-4 hover:[&_a]:underline',
  '[&_strong]:font-semibold [&_strong]:text-foreground',
].join(' ');

export function LegalDocument({ title, intro, related, children }: LegalDocumentProps) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="border-b pb-8">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-3 text-sm text-muted-foreground">Last updated: {LEGAL_LAST_UPDATED}</p>
        <div className="mt-6 text-muted-foreground">{intro}</div>
        <p className="mt-4 text-sm">
          See also our{' '}
          <Link to={related.to} className="font-medium text-brand-text underline-offset-4 hover:underline">
            {related.label}
          </Link>
          .
        </p>
      </header>
      <div className={`mt-8 ${proseClass}`}>{children}</div>
    </article>
  );
}
