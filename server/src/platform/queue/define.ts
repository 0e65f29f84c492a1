import type { z } from 'zod';
import type { Logger } from '../logger.ts';

/**
 * What a queued job is, seen from the code that queues it: the task name graphile-worker stores,
 * the payload's schema and how it is queued by default. Contracts hold no domain code, so a lower
 * domain can queue a higher one's job (see contracts.ts).
 */
export interface JobContract<P> {
  /** graphile-worker's task identifier; jobs already queued in users' databases carry it. */
  readonly name: string;
  readonly payload: z.ZodType<P>;
  /** Default 5, graphile-worker's usual retries are far more than any job here wants. */
  readonly maxAttempts?: number;
  /** The job key: a second job with the same key replaces the queued one instead of doubling it. */
  key?(payload: P): string;
  /** Names the task had before a rename: jobs an earlier version stored under them still run. */
  readonly formerNames?: readonly string[];
}

/** Whether a stored task identifier is this job's, under its name or a former one. */
export function isJobNamed(contract: Pick<JobContract<unknown>, 'name' | 'formerNames'>, taskIdentifier: string): boolean {
  return taskIdentifier === contract.name || (contract.formerNames ?? []).includes(taskIdentifier);
}

/** Declares a contract; the payload type is the schema's output. */
export function jobContract<P>(
  name: string,
  payload: z.ZodType<P>,
  options: { maxAttempts?: number; key?(payload: P): string; formerNames?: readonly string[] } = {},
): JobContract<P> {
  return { name, payload, ...options };
}

export interface JobAttempts {
  /** This attempt, counting from 1. */
  count: number;
  max: number;
  /** No retry follows if this attempt fails. */
  last: boolean;
}

export interface JobContext {
  /** Aborts when the worker stops (the app is shutting down) or the job stops itself (stop()). */
  signal: AbortSignal;
  /** The worker's own signal alone: the job should put its work back to resume after the restart. */
  shutdown: AbortSignal;
  /** Aborts `signal` for the job's own reason (a run's stop request), leaving `shutdown` alone. */
  stop(reason?: unknown): void;
  logger: Logger;
  attempts: JobAttempts;
}

/** A job: its contract plus what runs it. The payload reaching `run` has passed the schema. */
export interface JobDefinition<P> extends JobContract<P> {
  run(payload: P, ctx: JobContext): Promise<void>;
}

/** Types a job definition (the payload type comes from the contract's schema). */
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

/** Any job, for lists of definitions with different payloads. */
export type AnyJobDefinition = JobDefinition<unknown>;
