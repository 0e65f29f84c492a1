import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { REDIRECT_DELAY_MS } from '@clipshift/shared';
import { LoadingView } from './loading-view';

interface DelayedNavigateProps {
  to: string;
  state?: unknown;
  label?: string;
}

/** Redirects after the spec's 100 ms, showing the loading view meanwhile. */
export function DelayedNavigate({ to, state, label = 'Redirecting…' }: DelayedNavigateProps) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => void navigate(to, { replace: true, state }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, to, state]);
  return <LoadingView label={label} />;
}
