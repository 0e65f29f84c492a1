import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * A new page starts at the top; a link with a hash (e.g. /#request-access from the login page)
 * lands on its section once the page has rendered it.
 */
export function useScrollOnNavigate() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0 });
      return;
    }
    const frame = window.requestAnimationFrame(() => {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    });
    return () => window.cancelAnimationFrame(frame);
  }, [pathname, hash]);
}
