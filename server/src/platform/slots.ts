export interface SlotOptions {
  /** How many tasks run at once. */
  size: number;
  /** How long a task may wait for a slot before it is refused; Infinity: as long as it takes. */
  waitMs: number;
  /** How many tasks may wait; any more are refused at once (Infinity: no limit). */
  maxWaiting: number;
  /** The error a refused task fails with. */
  refuse: () => Error;
}

export interface RunInSlotOptions {
  /** Aborting while the task waits takes it out of the line at once (it rejects with the signal's reason); a running task is the task's own business. */
  signal?: AbortSignal | undefined;
  /** Called once, before waiting, when no slot is free (a progress line can say so). */
  onWait?: (() => void) | undefined;
}

export interface Slots {
  /** Runs `task` in a free slot, after waiting for one if need be. */
  run<T>(task: () => Promise<T>, options?: RunInSlotOptions): Promise<T>;
  /** Tasks running now (for tests and logs). */
  readonly running: number;
  /** Tasks waiting for a slot now. */
  readonly waiting: number;
  readonly size: number;
}

interface Waiter {
  grant: () => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A bounded pool of slots for expensive work (ffmpeg previews and renders): a task runs in a free
 * slot or waits in line, first come first served; a burst beyond the line is refused.
 */
export function createSlots(options: SlotOptions): Slots {
  let running = 0;
  const waiting: Waiter[] = [];

  const acquire = (runOptions: RunInSlotOptions): Promise<void> => {
    const { signal } = runOptions;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (running < options.size) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= options.maxWaiting) return Promise.reject(options.refuse());
    runOptions.onWait?.();
    return new Promise<void>((resolve, reject) => {
      const leave = (error: unknown) => {
        const index = waiting.indexOf(entry);
        if (index >= 0) waiting.splice(index, 1);
        clearTimeout(entry.timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => leave(signal?.reason);
      const entry: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        timer: Number.isFinite(options.waitMs) ? setTimeout(() => leave(options.refuse()), options.waitMs) : undefined,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.push(entry);
    });
  };

  // A freed slot goes straight to the next waiter: a newcomer never overtakes it.
  const release = () => {
    const next = waiting.shift();
    if (!next) {
      running -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.grant();
  };

  return {
    async run(task, runOptions = {}) {
      await acquire(runOptions);
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
    size: options.size,
  };
}
