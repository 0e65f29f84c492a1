import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CRON } from '../../server/src/app/jobs.ts';
import { runJob, runTypedJob, toTaskList } from '../../server/src/jobs/adapter.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { AUTO_PUBLISH_JOB, LIVE_CHECK_JOB, LOGS_TRIM_JOB, MOMENT_CLIP_JOB, POST_JOB, RECOVER_JOB, REFRESH_STATS_JOB, REFRESH_TOKENS_JOB, RENDER_JOB, RUN_JOB, SCHEDULE_JOB, SUBTITLE_JOB } from '../../server/src/platform/queue/contracts.ts';
import { defineJob, jobContract, type JobContext } from '../../server/src/platform/queue/define.ts';
import { enqueue, jobKey } from '../../server/src/platform/queue/queue.ts';

const RUN_ID = '6f1c8a1e-2b9f-4c3d-9e8a-1d2c3b4a5f60';

function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

describe('typed job definitions', () => {
  it('keeps the task names (and key prefixes) that jobs already queued in users’ databases carry', () => {
    expect([LOGS_TRIM_JOB, RECOVER_JOB, RUN_JOB, SCHEDULE_JOB, SUBTITLE_JOB, RENDER_JOB, POST_JOB].map((job) => job.name)).toEqual([
      'logs/trim',
      'downloads/recover',
      'downloads/run',
      'downloads/schedule',
      'subtitles/generate',
      'clips/render',
      'publishing/post',
    ]);
    // Renamed from 'tiktok/post' when every platform came to share it: jobs stored under it still run.
    expect(POST_JOB.formerNames).toEqual(['tiktok/post']);
    expect(jobKey(RUN_JOB, { runId: 'r' })).toBe('run:r');
    expect(jobKey(SCHEDULE_JOB, { streamerId: 's' })).toBe('schedule:s');
    expect(jobKey(SUBTITLE_JOB, { requestId: 'q' })).toBe('subtitles:q');
    expect(jobKey(RENDER_JOB, { requestId: 'q' })).toBe('render:q');
    expect(jobKey(POST_JOB, { uploadId: 'u' })).toBe('upload:u');
    expect(jobKey(AUTO_PUBLISH_JOB, { clipRowId: 'c' })).toBe('auto-publish:c');
    expect(CRON.map((item) => [item.job.name, item.identifier])).toEqual([
      ['logs/trim', 'logs-trim'],
      ['downloads/recover', 'downloads-recover'],
      ['publishing/expire-media', 'media-retention'],
      ['publishing/refresh-stats', 'publishing-refresh-stats'],
      ['publishing/refresh-tokens', 'publishing-refresh-tokens'],
      ['moments/check-live', 'moments-check-live'],
    ]);
    expect(jobKey(LIVE_CHECK_JOB, {})).toBe('moments-check-live');
    expect(jobKey(MOMENT_CLIP_JOB, { momentId: 'm' })).toBe('moment:m');
    expect(jobKey(REFRESH_STATS_JOB, {})).toBe('publishing-refresh-stats');
    expect(jobKey(REFRESH_TOKENS_JOB, {})).toBe('publishing-refresh-tokens');
  });

  it('refuses a payload that does not match the contract, at compile time and before queueing', async () => {
    const noDatabase = {} as never;
    // @ts-expect-error a run's payload is { runId }
    await expect(enqueue(noDatabase, RUN_JOB, { streamerId: RUN_ID })).rejects.toThrow(z.ZodError);
    // @ts-expect-error the id must be a string
    await expect(enqueue(noDatabase, POST_JOB, { uploadId: 42 })).rejects.toThrow(z.ZodError);
    await expect(enqueue(noDatabase, RUN_JOB, { runId: 'not-a-uuid' })).rejects.toThrow(z.ZodError);
  });

  it('ends a job whose payload is invalid with an error log and no retry', async () => {
    const { logger, lines } = capturingLogger();
    let ran = false;
    const job = defineJob({ ...RUN_JOB, run: async () => void (ran = true) });
    await expect(runJob(job, { runId: 'nope' }, logger)).resolves.toBeUndefined();
    expect(ran).toBe(false);
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'job downloads/run has an invalid payload; dropped without retrying' })]);
  });

  it('gives run a signal that joins the worker’s with the job’s own, and the attempts', async () => {
    const { logger } = capturingLogger();
    const seen: JobContext[] = [];
    const job = defineJob({
      ...jobContract('test/signals', z.object({ stopItself: z.boolean() })),
      run: async ({ stopItself }, ctx) => {
        if (stopItself) ctx.stop(new Error('stop requested'));
        seen.push(ctx);
      },
    });
    await runTypedJob(job, { stopItself: true }, logger, { attempts: 2, maxAttempts: 3 });
    expect(seen[0]!.signal.aborted).toBe(true);
    expect(seen[0]!.shutdown.aborted).toBe(false);
    expect(seen[0]!.attempts).toEqual({ count: 2, max: 3, last: false });

    const worker = new AbortController();
    worker.abort();
    await runTypedJob(job, { stopItself: false }, logger, { shutdown: worker.signal, attempts: 3, maxAttempts: 3 });
    expect(seen[1]!.signal.aborted).toBe(true);
    expect(seen[1]!.shutdown.aborted).toBe(true);
    expect(seen[1]!.attempts.last).toBe(true);
  });

  it('builds one task per name', () => {
    const { logger } = capturingLogger();
    const job = defineJob({ ...LOGS_TRIM_JOB, run: async () => undefined });
    expect(Object.keys(toTaskList([job], logger))).toEqual(['logs/trim']);
    expect(() => toTaskList([job, job], logger)).toThrow('two jobs are named logs/trim');
  });
});
