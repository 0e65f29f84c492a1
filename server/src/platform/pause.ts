import { setTimeout as sleep } from 'node:timers/promises';

/** Waits `ms`, or less when any of the signals aborts (never throws: the caller checks them). */
export async function pause(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<void> {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  await sleep(ms, undefined, given.length ? { signal: AbortSignal.any(given) } : undefined).catch(() => undefined);
}
