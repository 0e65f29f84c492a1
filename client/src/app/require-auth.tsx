import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { DelayedNavigate } from '@/components/delayed-navigate';
import { LoadingView } from '@/components/loading-view';
import { useAuth } from '@/api/auth';
import { useProcessingPreferencesSync } from '@/api/settings';
import { paths } from '@/lib/paths';

/** Signed-in screens keep this browser's app-settings in step with the account's preferences. */
function ProcessingPreferencesSync() {
  useProcessingPreferencesSync();
  return null;
}

/** Guards every /app route: unknown → loading view; signed out → /login, remembering the page. */
export function RequireAuth() {
  const { status, recheckIfStale } = useAuth();
  const location = useLocation();

  useEffect(() => {
    recheckIfStale();
  }, [location.pathname, recheckIfStale]);

  if (status === 'unknown') return <LoadingView label="Checking your session…" />;
  if (status === 'anonymous') {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <DelayedNavigate to={paths.login} from={from} label="Redirecting to login…" />;
  }
  return (
    <div className="mx-auto w-full max-w-6xl space-y-8 px-4 py-8 sm:px-6 sm:py-10">
      <ProcessingPreferencesSync />
      <Outlet />
    </div>
  );
}
