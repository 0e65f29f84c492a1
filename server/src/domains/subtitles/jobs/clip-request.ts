import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../../deps.ts';
import { findClipById, instanceWorkDir, localClipFile, replaceClipFiles, type ClipRow } from '../../clips/service.ts';
import { recordLog } from '../../logs/service.ts';
import type { PipelineStage } from '../../studio/service.ts';
import type { DbOrTrx } from '../../../platform/db/database.ts';
import type { RenderJobKind, SubtitleStage } from '../../../platform/db/schema.ts';
import { startBeating } from '../../../platform/beat.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import type { JobContext } from '../../../platform/queue/define.ts';
import { beatRequest, claimQueuedRequest, moveSubtitleRequest } from '../queries.ts';
import { subtitleProgress, type SubtitleProgress } from '../progress.ts';
import { queueRequestJob } from '../request-jobs.ts';

/*
 * The one skeleton of a clip's request job (subtitles, render again): claim the request, beat while
 * it runs (a stop or recovery ending the row stops the work within a beat), make the clip's video in
 * a work folder of its own, then, in ONE transaction, end the request as done — only while it is
 * still this process's running request — record the clip's new state and move the new files over
 * the old. A stop that wins the race leaves the previous video; a restart hands the request back.
 */

/** How often the job beats and looks at its row: a stop (from any process) reaches ffmpeg within this. */
const STOP_CHECK_MS = 500;

class RequestStopped extends Error {
  constructor() {
    super('Request stopped');
  }
}

export interface RequestRun {
  clip: ClipRow;
  /** The request's model choice and whether the user asked to transcribe again. */
  request: { model: string | null; retranscribe: boolean };
  workDir: string;
  /** The clip's source, copied into the work folder. */
  source: string;
  signal: AbortSignal;
  progress: SubtitleProgress;
}

/** How the work ended. */
export type RequestOutcome =
  /** A new video: `record` saves what the clip now is, inside the transaction that places the files. */
  | { kind: 'replace'; files: { video: string; thumbnail: string }; record(trx: DbOrTrx): Promise<void>; log: string }
  /** Nothing to change (no speech): the clip keeps its video. */
  | { kind: 'unchanged'; status: 'no_speech'; message: string; log: string };

export interface ClipRequestJob {
  kind: RenderJobKind;
  /** The stage the request shows once claimed. */
  firstStage: SubtitleStage;
  /** The system log's logger name. */
  logger: string;
  /** The request's message when the work failed. */
  failed(reason: string): string;
  /** The system log's line when it failed. */
  failedLog(clipTitle: string, reason: string): string;
  work(run: RequestRun): Promise<RequestOutcome>;
}

/**
 * Hands an interrupted request back to the queue (the app is stopping, or this worker's runner is
 * being replaced), so the next worker starts it again. False if it is no longer this process's.
 */
export async function putBack(deps: AppDeps, requestId: string, identity: WorkerIdentity, kind: RenderJobKind): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const set = { status: 'queued', owner_host: null, owner_pid: null, owner_instance: null, heartbeat_at: null } as const;
    if (!(await moveSubtitleRequest(trx, requestId, { from: 'running', owner: identity.instance, set }))) return false;
    await queueRequestJob(trx, { id: requestId, kind });
    return true;
  });
}

/** The pipeline's stages as the request's progress shows them. */
export function reportStage(progress: SubtitleProgress): (stage: PipelineStage, fraction: number) => void {
  return (stage, fraction) => {
    if (stage === 'transcribing' || stage === 'rendering') progress.report(stage, fraction);
    // Waiting for a render slot: the render is next, at its start.
    else if (stage === 'waiting_to_render') progress.report('rendering', 0);
  };
}

/** Ends the request as done and puts the new video in place, in one transaction; false when it was stopped first. */
function placeOutcome(deps: AppDeps, requestId: string, identity: WorkerIdentity, clip: ClipRow, outcome: Extract<RequestOutcome, { kind: 'replace' }>): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const done = { status: 'done', percent: 100, message: null, finished_at: new Date() } as const;
    if (!(await moveSubtitleRequest(trx, requestId, { from: 'running', owner: identity.instance, set: done }))) return false;
    await outcome.record(trx);
    // Last, inside the transaction: if it fails, the request and the clip stay as they were.
    await replaceClipFiles(deps.storage, clip, outcome.files);
    return true;
  });
}

export async function runClipRequest(deps: AppDeps, identity: WorkerIdentity, requestId: string, ctx: JobContext, job: ClipRequestJob): Promise<void> {
  const request = await claimQueuedRequest(deps.db, requestId, identity, job.firstStage);
  if (!request) return;
  let stopped = false;
  const beat = async () => {
    // Stopped by the user, or ended by recovery: either way the row has its final word already.
    if ((await beatRequest(deps.db, requestId)) !== 'running') {
      stopped = true;
      ctx.stop(new RequestStopped());
    }
  };
  const beating = startBeating(beat, STOP_CHECK_MS, (error) => deps.logger.warn({ err: error, requestId }, 'request heartbeat failed'));
  const workDir = path.join(instanceWorkDir(deps.env.dataDir, identity.instance), `${job.kind}-${requestId}`);
  const progress = subtitleProgress(deps.db, requestId, job.kind);
  const end = async (set: { status: 'failed' | 'no_speech'; message: string }) => {
    await progress.stop();
    const percent = set.status === 'failed' ? {} : { percent: 100 };
    await moveSubtitleRequest(deps.db, requestId, { from: 'running', owner: identity.instance, set: { ...set, ...percent, finished_at: new Date() } });
  };
  const clip = await findClipById(deps.db, request.clip_row_id);
  try {
    if (!clip) {
      await end({ status: 'failed', message: 'The clip no longer exists' });
      return;
    }
    await mkdir(workDir, { recursive: true });
    const source = await localClipFile(deps.storage, clip, 'source', workDir, ctx.signal);
    const outcome = await job.work({ clip, request: { model: request.model, retranscribe: request.retranscribe }, workDir, source, signal: ctx.signal, progress });
    ctx.signal.throwIfAborted();
    await progress.stop();
    if (outcome.kind === 'unchanged') await end({ status: outcome.status, message: outcome.message });
    else if (!(await placeOutcome(deps, requestId, identity, clip, outcome))) throw new RequestStopped();
    await recordLog(deps.db, deps.logger, { level: 'INFO', logger: job.logger, message: outcome.log, userId: clip.user_id });
  } catch (error) {
    if (stopped || error instanceof RequestStopped) {
      deps.logger.info({ requestId, kind: job.kind }, 'request stopped; the clip keeps its previous video');
      return;
    }
    if (ctx.shutdown.aborted && (await putBack(deps, requestId, identity, job.kind))) {
      deps.logger.info({ requestId, kind: job.kind }, 'request interrupted by a restart; queued again');
      return;
    }
    const reason = publicReason(error);
    await end({ status: 'failed', message: job.failed(reason) });
    await recordLog(deps.db, deps.logger, { level: 'ERROR', logger: job.logger, message: job.failedLog(clip?.title ?? 'a clip', reason), userId: request.user_id, error });
  } finally {
    await progress.stop();
    await beating.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}
