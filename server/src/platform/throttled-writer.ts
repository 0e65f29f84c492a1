/** How often a job may save its progress: the browser polls every 2 s, the database sees ≤ 1 write a second per job. */
export const PROGRESS_WRITE_INTERVAL_MS = 1_000;

export interface ThrottledWriter<T> {
  /** The latest value; written now, or when the interval since the last write is over. */
  push(value: T): void;
  /** Drops a value still waiting and waits for writes under way: afterwards nothing more is written. */
  stop(): Promise<void>;
}

/**
 * Saves only the latest of many values, at most once per interval, one write at a time. Engines
 * report progress many times a second; a failed write is dropped (progress is best effort: the
 * next one carries the newer value).
 */
export function throttledWriter<T>(write: (value: T) => Promise<unknown>, intervalMs = PROGRESS_WRITE_INTERVAL_MS): ThrottledWriter<T> {
  let waiting: { value: T } | null = null;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  const writeWaiting = () => {
    timer = null;
    if (!waiting) return;
    const { value } = waiting;
    waiting = null;
    lastWriteAt = Date.now();
    writing = writing.then(() => write(value)).then(
      () => undefined,
      () => undefined,
    );
  };

  return {
    push(value) {
      waiting = { value };
      if (timer) return;
      const wait = lastWriteAt + intervalMs - Date.now();
      if (wait <= 0) writeWaiting();
      else timer = setTimeout(writeWaiting, wait);
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = null;
      await writing;
    },
  };
}
