export interface Beating {
  /** No beat starts after this; resolves once the one in flight (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `beat` every `intervalMs`, one at a time: while a beat waits (the database is away) the
 * next ones are skipped rather than piled up. A failed beat goes to `onError`; the next tick tries
 * again.
 */
export function startBeating(beat: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void): Beating {
  let beating: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    beating ??= beat()
      .catch(onError)
      .finally(() => {
        beating = null;
      });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await beating;
    },
  };
}
