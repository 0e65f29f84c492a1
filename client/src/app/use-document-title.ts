import { useEffect } from 'react';
import { useMatches } from 'react-router-dom';
import { SITE_NAME } from '@/lib/site';

/** What a route of the table may carry: the name its tab shows. */
export interface RouteHandle {
  title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).title === 'string';
}

/** "Clips · Clipshift": a tab, a bookmark and the history each say which screen they hold. */
export function documentTitle(title: string | null): string {
  return title ? `${title} · ${SITE_NAME}` : SITE_NAME;
}

/** Sets document.title from the deepest matched route that names itself. */
export function useDocumentTitle(): void {
  const matches = useMatches();
  const title = matches.map((match) => match.handle).filter(isRouteHandle).at(-1)?.title ?? null;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
