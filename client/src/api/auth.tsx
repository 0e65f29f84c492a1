import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { REDIRECT_DELAY_MS } from '@clipshift/shared';
import { paths } from '@/lib/paths';
import { clearAuthCache, isAuthCacheFresh, readAuthCache, writeAuthCache } from '@/lib/storage';
import { onSessionExpired } from './session';
import { trpc } from './trpc';

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

/** Signs the tab out when the query client's interceptor reports a refused session. */
function useSessionExpired(onExpired: () => void) {
  useEffect(() => onSessionExpired(onExpired), [onExpired]);
}

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
  useSessionExpired(expire);

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

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}

/** Whether anyone may register, and whether an invite code is needed. */
export function useRegistrationStatus() {
  return trpc.auth.registrationStatus.useQuery();
}

/** The signed-in user as the server knows it (is_admin included). */
export function useSession() {
  return trpc.auth.checkAuth.useQuery();
}

export function useLoginMutation() {
  return trpc.auth.login.useMutation();
}

export function useRegisterMutation() {
  return trpc.auth.register.useMutation();
}
