import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { REDIRECT_DELAY_MS } from '@clipshift/shared';
import type { RememberedState } from '@/lib/paths';
import { LoadingView } from './loading-view';

interface DelayedNavigateProps {
  to: string;
  /** The page to come back to after signing in, kept in the history state of `to`. */
  from?: string;
  label?: string;
}

/** Redirects after the spec's 100 ms, showing the loading view meanwhile. */
export function DelayedNavigate({ to, from, label = 'Redirecting…' }: DelayedNavigateProps) {
  const navigate = useNavigate();
  useEffect(() => {
    const state: RememberedState | undefined = from === undefined ? undefined : { from };
    const timer = window.setTimeout(() => void navigate(to, { replace: true, state }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, to, from]);
  return <LoadingView label={label} />;
}
