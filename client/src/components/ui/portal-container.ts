import { useEffect, useState } from 'react';

/**
 * Floating content (menus, tooltips) is portalled into the page's main landmark, so it belongs to
 * a region too. Looked up after mount: the navigation bar renders before <main> is in the document.
 */
export function usePortalContainer(): HTMLElement | undefined {
  const [container, setContainer] = useState<HTMLElement | undefined>(undefined);
  useEffect(() => setContainer(document.querySelector('main') ?? undefined), []);
  return container;
}
