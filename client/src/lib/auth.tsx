import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { REDIRECT_DELAY_MS } from '@clipshift/shared';
import { paths } from './paths';
import { clearAuthCache, isAuthCacheFresh, readAuthCache, writeAuthCache } from './storage';
import { isUnauthorizedError, trpc } from './trpc';

/** unknown until the cache or the server has answered (spec section 4). */
export type AuthStatus = 'unknown' | 'authenticated' | 'anonymous';

interface AuthContextValue {
  status: AuthStatus;
  /** After a successful login: remembers the state for 5 minutes. */
  markAuthenticated(): void;
  /** Asks the server again when the cached state is older than 5 minutes. */
  recheckIfStale(): void;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

function initialStatus(): AuthStatus {
  const cache = readAuthCache();
  if (!isAuthCacheFresh(cache)) return 'unknown';
  return cache.authenticated ? 'authenticated' : 'anonymous';
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>(initialStatus);
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const checking = useRef(false);

  const verify = useCallback(async () => {
    if (checking.current) return;
    checking.current = true;
    try {
      const result = await utils.auth.checkAuth.fetch(undefined, { staleTime: 0 });
      writeAuthCache(result.authenticated);
      setStatus(result.authenticated ? 'authenticated' : 'anonymous');
    } catch {
      // Without an answer, an unknown state becomes signed out so the login screen can speak;
      // a known state stays as it was until the server is reachable again.
      setStatus((current) => (current === 'unknown' ? 'anonymous' : current));
    } finally {
      checking.current = false;
    }
  }, [utils]);

  useEffect(() => {
    if (status === 'unknown') void verify();
  }, [status, verify]);

  const expire = useCallback(() => {
    clearAuthCache();
    setStatus('anonymous');
  }, []);
  useSignOutOnUnauthorized(expire);

  const markAuthenticated = useCallback(() => {
    // Answers cached while signed out (checkAuth said "not authenticated") or from an expired
    // session must not be shown to the user who just signed in.
    queryClient.removeQueries({ type: 'inactive' });
    writeAuthCache(true);
    setStatus('authenticated');
  }, [queryClient]);

  const recheckIfStale = useCallback(() => {
    if (!isAuthCacheFresh(readAuthCache())) void verify();
  }, [verify]);

  const signOut = useCallback(async () => {
    try {
      await utils.client.auth.logout.mutate();
    } catch {
      // Signing out locally still happens: the user asked to leave, and a dead cookie is refused anyway.
    }
    clearAuthCache();
    window.setTimeout(() => {
      // Another user may sign in next in this tab: nothing of this one's data may linger.
      queryClient.clear();
      setStatus('anonymous');
      void navigate(paths.login, { replace: true });
    }, REDIRECT_DELAY_MS);
  }, [utils, queryClient, navigate]);

  const value = useMemo(
    () => ({ status, markAuthenticated, recheckIfStale, signOut }),
    [status, markAuthenticated, recheckIfStale, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** A session that ends on the server (expiry, sign-out elsewhere) ends here at the first refused call. */
function useSignOutOnUnauthorized(onUnauthorized: () => void) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && isUnauthorizedError(event.action.error)) {
        onUnauthorized();
      }
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && isUnauthorizedError(event.action.error)) {
        onUnauthorized();
      }
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient, onUnauthorized]);
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
