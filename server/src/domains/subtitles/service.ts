import { ALREADY_GENERATING_SUBTITLES } from '@clipshift/shared';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { findClipRow, findClipWithMedia, newestClipsWithMedia } from '../clips/service.ts';
import { postedTo } from '../publishing/service.ts';
import { findStreamer } from '../streamers/service.ts';
import { AppError, badGateway, conflict, notFound, serviceRestarting, stillWorking } from '../../platform/errors.ts';
import { HELD_CALL_LIMIT_MS } from '../deps.ts';
import { pause } from '../../platform/pause.ts';
import type { RenderJobKind } from '../../platform/db/schema.ts';
import { queueRequestJob } from './request-jobs.ts';
import { insertSubtitleRequest, selectActiveKind, selectSubtitleRequest, stopActiveRender, stopActiveRenders } from './queries.ts';

export { renderStateOf, renderStates } from './progress.ts';
/** The clip's latest request as a column of a statement that lists clips; renderStateOf reads it. */
export { latestRequestColumn as renderStateColumn, type LatestRequest } from './queries.ts';
export { queueRequestJob, queueSubtitleJob, renderJobKey, requestJobKey, subtitleJobKey } from './request-jobs.ts';
export { recoverInterruptedSubtitles, requeueInterruptedSubtitles, runningSubtitleRequestIds } from './recovery.ts';

const SUBTITLES_DONE = 'Subtitles generated successfully for clip!';
export const NO_SPEECH = 'No speech found in this clip: there is nothing to subtitle';
const POLL_MS = 400;

interface SubtitleOutcome {
  ok: boolean;
  message: string;
  no_speech?: boolean;
}

export const ALREADY_RENDERING = 'This clip is already being rendered';
export const RENDER_QUEUED = 'Rendering the clip again with its settings';
export const RENDER_STOPPED = 'Render stopped';
export const NO_RENDER_RUNNING = 'No render is running for this clip';

/** A clip has one job at a time: the refusal names the one that is going. */
async function alreadyBusy(db: DbOrTrx, clipRowId: string) {
  return conflict((await selectActiveKind(db, clipRowId)) === 'render' ? ALREADY_RENDERING : ALREADY_GENERATING_SUBTITLES);
}

interface NewRequest {
  model?: string | undefined;
  kind: RenderJobKind;
  retranscribe?: boolean | undefined;
}

/** Inserts the request and queues its job together; a second one while one is going is refused. */
async function queueRequest(db: Db, userId: string, clipId: string, request: NewRequest): Promise<string> {
  const clip = await findClipWithMedia(db, userId, clipId);
  try {
    return await db.transaction().execute(async (trx) => {
      const id = await insertSubtitleRequest(trx, { user_id: userId, clip_row_id: clip.id, model: request.model ?? null, kind: request.kind, retranscribe: request.retranscribe ?? false });
      await queueRequestJob(trx, { id, kind: request.kind });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw await alreadyBusy(db, clip.id);
    throw error;
  }
}

/**
 * Queues a subtitle job for the user's clip. An edited transcript is burned as it is unless
 * `retranscribe` asks for fresh speech recognition.
 */
export function requestSubtitles(db: Db, userId: string, clipId: string, model: string | undefined, retranscribe = false): Promise<string> {
  return queueRequest(db, userId, clipId, { kind: 'subtitles', model, retranscribe });
}

/** Queues a re-render of the clip with its saved settings (POST /api/clips/{id}/render). */
export async function requestRender(db: Db, userId: string, clipId: string): Promise<{ message: string }> {
  await queueRequest(db, userId, clipId, { kind: 'render' });
  return { message: RENDER_QUEUED };
}

/**
 * Stops the clip's re-render: its row says stopped at once, and the worker running it (in any
 * process) sees that on its next heartbeat and kills ffmpeg. The clip keeps its previous video.
 */
export async function stopRender(db: Db, userId: string, clipId: string): Promise<{ message: string }> {
  const clip = await findClipRow(db, userId, clipId);
  if (!(await stopActiveRender(db, clip.id, RENDER_STOPPED))) throw conflict(NO_RENDER_RUNNING);
  return { message: RENDER_STOPPED };
}

export const RESTARTING_SUBTITLES = 'The server is restarting. Subtitle generation carries on after the restart: check the clip again in a minute.';
export const SUBTITLES_CARRY_ON = 'Subtitle generation is taking a while. It carries on in the background: check the clip again in a minute.';

interface WaitOptions {
  /** The caller went away. */
  signal?: AbortSignal;
  /** The process is shutting down: answer 503 at once rather than hold the request. */
  stopping?: AbortSignal;
  /** How long to wait at most (default HELD_CALL_LIMIT_MS); past it the answer is a 503 saying the work carries on. */
  limitMs?: number;
}

/**
 * Waits for the request's job to end (in this process or any worker on the database) and turns
 * its outcome into the answer of POST /api/subtitle/{id}.
 */
export async function awaitSubtitles(db: Db, requestId: string, options: WaitOptions = {}): Promise<SubtitleOutcome> {
  const deadline = Date.now() + (options.limitMs ?? HELD_CALL_LIMIT_MS);
  for (;;) {
    const row = await selectSubtitleRequest(db, requestId);
    if (!row) throw notFound('The clip was deleted while its subtitles were being generated');
    if (row.status === 'done') return { ok: true, message: SUBTITLES_DONE };
    if (row.status === 'no_speech') return { ok: false, no_speech: true, message: row.message ?? NO_SPEECH };
    if (row.status === 'failed') throw badGateway(row.message ?? 'Subtitle generation failed');
    if (options.stopping?.aborted) throw serviceRestarting(RESTARTING_SUBTITLES);
    if (Date.now() > deadline || options.signal?.aborted) throw stillWorking(SUBTITLES_CARRY_ON);
    await pause(POLL_MS, options.signal, options.stopping);
  }
}

/** A streamer's clips are this many at most when its look is applied to them all. */
const LOOK_CLIPS_MAX = 500;

/** Posts that count as the clip being out (or on its way): a clip with only failed or canceled ones is not posted yet. */
const POSTED_STATUSES = new Set<string>(['queued', 'uploading', 'processing', 'sent_to_inbox', 'published', 'scheduled']);

/** The streamer's clips whose files are kept and that have not been posted anywhere yet. */
async function unpostedClipsOf(db: Db, userId: string, streamerId: string) {
  const clips = await newestClipsWithMedia(db, userId, streamerId, LOOK_CLIPS_MAX);
  const posts = await postedTo(db, clips.map((clip) => clip.id));
  return clips.filter((clip) => !(posts.get(clip.id) ?? []).some((post) => POSTED_STATUSES.has(post.status)));
}

/**
 * POST /api/streamers/{name}/render: the streamer's changed look (layout, regions, captions, brand)
 * applied to its clips not yet posted: one re-render each, queued through the render slots, each
 * clip showing its progress. A clip already rendering or subtitling is left to finish.
 */
export async function renderStreamerClips(db: Db, userId: string, name: string): Promise<{ message: string; queued: number; busy: number }> {
  const streamer = await findStreamer(db, userId, name);
  const clips = await unpostedClipsOf(db, userId, streamer.id);
  let queued = 0;
  let busy = 0;
  for (const clip of clips) {
    try {
      await queueRequest(db, userId, clip.clip_id, { kind: 'render' });
      queued += 1;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
      busy += 1;
    }
  }
  if (queued === 0 && busy === 0) return { message: `No clips of ${streamer.name} are waiting to be posted`, queued, busy };
  const already = busy ? ` (${busy} already rendering)` : '';
  return { message: `Rendering ${queued} clip${queued === 1 ? '' : 's'} of ${streamer.name} again with the new look${already}`, queued, busy };
}

/** POST /api/streamers/{name}/render/stop: stops every queued or running re-render of the streamer's clips; each keeps its previous video. */
export async function stopStreamerRenders(db: Db, userId: string, name: string): Promise<{ message: string; stopped: number }> {
  const streamer = await findStreamer(db, userId, name);
  const clips = await newestClipsWithMedia(db, userId, streamer.id, LOOK_CLIPS_MAX);
  const stopped = await stopActiveRenders(db, clips.map((clip) => clip.id), RENDER_STOPPED);
  if (stopped === 0) throw conflict(`No renders of ${streamer.name} are running`);
  return { message: `Stopped ${stopped} render${stopped === 1 ? '' : 's'} of ${streamer.name}: those clips keep their previous video`, stopped };
}
