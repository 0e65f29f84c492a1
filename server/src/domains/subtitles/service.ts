import { ALREADY_GENERATING_SUBTITLES } from '@clipshift/shared';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { findClipRow } from '../clips/service.ts';
import { badGateway, conflict, notFound, serviceRestarting } from '../../platform/errors.ts';
import { pause } from '../../platform/pause.ts';
import { SUBTITLE_JOB } from '../../platform/queue/contracts.ts';
import { enqueue, jobKey } from '../../platform/queue/queue.ts';
import { insertSubtitleRequest, selectSubtitleRequest } from './queries.ts';

export { captionsForRun, type RunCaptions } from './captions.ts';
export { renderStates } from './progress.ts';

const SUBTITLES_DONE = 'Subtitles generated successfully for clip!';
export const NO_SPEECH = 'No speech found in this clip: there is nothing to subtitle';
/** How long the HTTP call waits for the job before giving up on it. */
export const WAIT_LIMIT_MS = 30 * 60_000;
const POLL_MS = 400;

interface SubtitleOutcome {
  ok: boolean;
  message: string;
  no_speech?: boolean;
}

export const subtitleJobKey = (requestId: string) => jobKey(SUBTITLE_JOB, { requestId });

/** Queues (or queues again, to resume) the job of a subtitle request. */
export async function queueSubtitleJob(db: DbOrTrx, requestId: string): Promise<void> {
  await enqueue(db, SUBTITLE_JOB, { requestId });
}

/** Queues a subtitle job for the user's clip; a second request while one is going is refused. */
export async function requestSubtitles(db: Db, userId: string, clipId: string, model: string | undefined): Promise<string> {
  const clip = await findClipRow(db, userId, clipId);
  try {
    return await db.transaction().execute(async (trx) => {
      const requestId = await insertSubtitleRequest(trx, { user_id: userId, clip_row_id: clip.id, model: model ?? null });
      await queueSubtitleJob(trx, requestId);
      return requestId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ALREADY_GENERATING_SUBTITLES);
    throw error;
  }
}

export const RESTARTING_SUBTITLES = 'The server is restarting. Subtitle generation carries on after the restart: check the clip again in a minute.';

interface WaitOptions {
  /** The caller went away. */
  signal?: AbortSignal;
  /** The process is shutting down: answer 503 at once rather than hold the request. */
  stopping?: AbortSignal;
  limitMs?: number;
}

/**
 * Waits for the request's job to end (in this process or any worker on the database) and turns
 * its outcome into the answer of POST /api/subtitle/{id}.
 */
export async function awaitSubtitles(db: Db, requestId: string, options: WaitOptions = {}): Promise<SubtitleOutcome> {
  const deadline = Date.now() + (options.limitMs ?? WAIT_LIMIT_MS);
  for (;;) {
    const row = await selectSubtitleRequest(db, requestId);
    if (!row) throw notFound('The clip was deleted while its subtitles were being generated');
    if (row.status === 'done') return { ok: true, message: SUBTITLES_DONE };
    if (row.status === 'no_speech') return { ok: false, no_speech: true, message: row.message ?? NO_SPEECH };
    if (row.status === 'failed') throw badGateway(row.message ?? 'Subtitle generation failed');
    if (options.stopping?.aborted) throw serviceRestarting(RESTARTING_SUBTITLES);
    if (Date.now() > deadline || options.signal?.aborted) {
      throw badGateway('Subtitle generation is taking too long; it goes on in the background');
    }
    await pause(POLL_MS, options.signal, options.stopping);
  }
}
