export interface SlotOptions {
  /** How many tasks run at once. */
  size: number;
  /** How long a task may wait for a slot before it is refused. */
  waitMs: number;
  /** How many tasks may wait; any more are refused at once. */
  maxWaiting: number;
  /** The error a refused task fails with. */
  refuse: () => Error;
}

export interface Slots {
  /** Runs `task` in a free slot, after waiting for one if need be. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now (for tests and logs). */
  readonly running: number;
}

/**
 * A bounded pool of slots for expensive work started by requests (ffmpeg previews), so that a
 * burst of requests queues briefly and is then refused instead of starting a process each.
 */
export function createSlots(options: SlotOptions): Slots {
  let running = 0;
  const waiting: { grant: () => void; timer: NodeJS.Timeout }[] = [];

  const acquire = (): Promise<void> => {
    if (running < options.size) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= options.maxWaiting) return Promise.reject(options.refuse());
    return new Promise<void>((resolve, reject) => {
      const entry = {
        grant: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(options.refuse());
        }, options.waitMs),
      };
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
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
  };
}
