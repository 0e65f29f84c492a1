import type { JobHelpers, Task, TaskList } from 'graphile-worker';
import type { AnyJobDefinition, JobAttempts, JobContext, JobDefinition } from '../platform/queue/define.ts';
import type { Logger } from '../platform/logger.ts';
import { jobDuration, timed } from '../platform/metrics.ts';

interface RunJobOptions {
  /** graphile-worker's abort signal: the worker is stopping. */
  shutdown?: AbortSignal;
  attempts?: number;
  maxAttempts?: number;
}

function attemptsOf(options: RunJobOptions): JobAttempts {
  const count = options.attempts ?? 1;
  const max = options.maxAttempts ?? count;
  return { count, max, last: count >= max };
}

/**
 * Runs one job the way the worker does: the payload is checked against the job's schema, and `run`
 * gets a context whose signal joins the worker's with the job's own. A payload that does not match
 * can never succeed, so it is logged as an error and the job ends without a retry (graphile-worker
 * offers no public way to fail a locked job for good).
 */
export async function runJob(definition: AnyJobDefinition, rawPayload: unknown, logger: Logger, options: RunJobOptions = {}): Promise<void> {
  const jobLogger = logger.child({ job: definition.name });
  const parsed = definition.payload.safeParse(rawPayload);
  if (!parsed.success) {
    jobLogger.error({ payload: rawPayload, issues: parsed.error.issues }, `job ${definition.name} has an invalid payload; dropped without retrying`);
    return;
  }
  const shutdown = options.shutdown ?? new AbortController().signal;
  const own = new AbortController();
  const ctx: JobContext = {
    signal: AbortSignal.any([shutdown, own.signal]),
    shutdown,
    stop: (reason) => own.abort(reason),
    logger: jobLogger,
    attempts: attemptsOf(options),
  };
  await definition.run(parsed.data, ctx);
}

/** The typed counterpart of runJob, for callers that hold a payload of the job's own type. */
export function runTypedJob<P>(definition: JobDefinition<P>, payload: NoInfer<P>, logger: Logger, options: RunJobOptions = {}): Promise<void> {
  return runJob(definition as AnyJobDefinition, payload, logger, options);
}

function toTask(definition: AnyJobDefinition, logger: Logger): Task {
  return (rawPayload, helpers: JobHelpers) =>
    timed(
      (outcome, seconds) => jobDuration.observe({ task: definition.name, outcome }, seconds),
      () => runJob(definition, rawPayload, logger, { shutdown: helpers.abortSignal, attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts }),
    );
}

/** graphile-worker's task list from job definitions (one per name, and one per former name). */
export function toTaskList(definitions: readonly AnyJobDefinition[], logger: Logger): TaskList {
  const list: TaskList = {};
  for (const definition of definitions) {
    for (const name of [definition.name, ...(definition.formerNames ?? [])]) {
      if (list[name]) throw new Error(`two jobs are named ${name}`);
      list[name] = toTask(definition, logger);
    }
  }
  return list;
}
