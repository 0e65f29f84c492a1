export interface WaitOptions<T> {
  /** What is awaited, for the failure message: "Timed out after 60000 ms waiting for <message>". */
  message: string;
  timeoutMs?: number;
  intervalMs?: number;
  /** When the value read is the awaited one; without it, any truthy value is. */
  until?: (value: T) => boolean;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_INTERVAL_MS = 150;

/**
 * Reads `condition` until it holds (or `until` accepts what it read) and returns that value; on
 * timeout, fails naming what was awaited and the last value seen. The one way tests wait for
 * something that happens elsewhere (a job, a process, a fake's request): no fixed sleeps.
 */
export async function waitUntil<T, U extends T>(condition: () => T | Promise<T>, options: WaitOptions<T> & { until: (value: T) => value is U }): Promise<U>;
export async function waitUntil<T>(condition: () => T | Promise<T>, options: WaitOptions<T>): Promise<T>;
export async function waitUntil<T>(condition: () => T | Promise<T>, options: WaitOptions<T>): Promise<T> {
  const { message, timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS, until = Boolean } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (until(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${message}; last: ${shown(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The last value for the failure message; one JSON cannot write (a cycle, a BigInt) still shows. */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
