/** Who hears of a session the server refused: the signed-in state of this tab (api/auth). */
const sessionExpiredListeners = new Set<() => void>();

/**
 * A call was answered UNAUTHORIZED (expiry, sign-out elsewhere): the query client's interceptor
 * reports it here, and the tab becomes signed out (the /app guard then sends the user to /login,
 * remembering the page).
 */
export function reportSessionExpired(): void {
  for (const listener of sessionExpiredListeners) listener();
}

/** Listens until the returned function is called. */
export function onSessionExpired(listener: () => void): () => void {
  sessionExpiredListeners.add(listener);
  return () => {
    sessionExpiredListeners.delete(listener);
  };
}
