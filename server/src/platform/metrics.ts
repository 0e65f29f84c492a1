import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/*
 * The Prometheus metrics one process exposes at GET /api/metrics (http/metrics.ts). They live here,
 * in the innermost ring, so that jobs, engines and http can all record into them without importing
 * each other. One registry per process: counters and histograms are about this process's work,
 * while the job counts (clipshift_jobs) are read from the shared queue at each scrape.
 */
export const metricsRegistry = new Registry();

/** Seconds, from a 50 ms request to a 30 min render. */
const DURATION_BUCKETS = [0.05, 0.25, 1, 5, 15, 60, 180, 600, 1800];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const jobDuration = new Histogram({
  name: 'clipshift_job_duration_seconds',
  help: 'Duration of job runs in this process, by task and outcome',
  labelNames: ['task', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

export const renderDuration = new Histogram({
  name: 'clipshift_render_duration_seconds',
  help: 'Duration of clip renders (ffmpeg) in this process, by outcome',
  labelNames: ['outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

export const renderEncoderInfo = new Gauge({
  name: 'clipshift_render_encoder_info',
  help: 'The H.264 encoder renders in this process use (FFMPEG_ENCODER after probing): 1 for that encoder',
  labelNames: ['encoder'] as const,
  registers: [metricsRegistry],
});

export const renderEncodes = new Counter({
  name: 'clipshift_render_encodes_total',
  help: 'Finished video encodes of clip renders in this process, by encoder',
  labelNames: ['encoder'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'clipshift_http_request_duration_seconds',
  help: 'HTTP request durations by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: HTTP_BUCKETS,
  registers: [metricsRegistry],
});

export const storageErrors = new Counter({
  name: 'clipshift_storage_errors_total',
  help: 'Failed reads and writes of media files, by operation',
  labelNames: ['operation'] as const,
  registers: [metricsRegistry],
});

export type StorageOperation = 'read' | 'write' | 'delete';

export const jobsByState = new Gauge({
  name: 'clipshift_jobs',
  help: 'Jobs in the queue (all processes) by task and state, read at scrape time',
  labelNames: ['task', 'state'] as const,
  registers: [metricsRegistry],
});

export const databaseUp = new Gauge({
  name: 'clipshift_database_up',
  help: 'Whether the last scrape could read the job queue (1) or not (0)',
  registers: [metricsRegistry],
});

let defaultsCollected = false;

/** Process metrics (CPU, memory, event loop lag), started once and only where metrics are served. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'clipshift_' });
}

export type Outcome = 'success' | 'failure';

/** Runs `work` and hands its duration in seconds and whether it threw to `record`. */
export async function timed<T>(record: (outcome: Outcome, seconds: number) => void, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome: Outcome = 'failure';
  try {
    const result = await work();
    outcome = 'success';
    return result;
  } finally {
    record(outcome, (performance.now() - started) / 1000);
  }
}
