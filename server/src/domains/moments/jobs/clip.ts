import { CONNECT_TWITCH_FOR_MOMENTS, streamOffsetLabel } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import { isUniqueViolation } from '../../../platform/db/errors.ts';
import { AppError } from '../../../platform/errors.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import { defineJob, type JobContext, type JobDefinition } from '../../../platform/queue/define.ts';
import { MOMENT_CLIP_JOB } from '../../../platform/queue/contracts.ts';
import { startMomentRun } from '../../downloads/service.ts';
import { recordLog } from '../../logs/service.ts';
import { findStreamerById, type StreamerRow } from '../../streamers/service.ts';
import { createTwitchClip, twitchConnection, TwitchNotConnected, TwitchReconnectNeeded, TWITCH_RECONNECT_NEEDED, type TwitchClipRequest } from '../../twitch/service.ts';
import { selectMoment, selectWatch, updateMoment, type MomentRow } from '../queries.ts';

/** A clip of a moment from the past broadcast: long enough for the reaction after the burst. */
const VOD_CLIP_SECONDS = 30;

/** Refusals that no retry mends: the moment keeps the reason (or waits for the user, when it is the connection). */
const FINAL_CODES = new Set(['BAD_REQUEST', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT']);
const WAITS_FOR_USER = new Set([CONNECT_TWITCH_FOR_MOMENTS, TWITCH_RECONNECT_NEEDED]);

/**
 * How to clip the moment: live while its stream still runs (Twitch takes the last seconds up to
 * now, which hold the burst just confirmed), else from the stream's past broadcast at its offset.
 */
async function clipRequest(deps: AppDeps, moment: MomentRow, streamer: StreamerRow, signal: AbortSignal): Promise<TwitchClipRequest> {
  const watch = await selectWatch(deps.db, moment.streamer_id);
  if (watch?.live && watch.stream_id === moment.stream_id) return { broadcasterId: moment.broadcaster_id, live: true };
  const videos = deps.twitch ? await deps.twitch.getArchiveVideos(moment.broadcaster_id, signal) : [];
  const video = videos.find((candidate) => candidate.stream_id === moment.stream_id);
  if (!video) throw new AppError('NOT_FOUND', 'The stream has ended and Twitch keeps no past broadcast of it to clip from');
  const title = watch?.stream_id === moment.stream_id && watch.stream_title ? watch.stream_title : `${streamer.display_name ?? streamer.name} at ${streamOffsetLabel(moment.stream_offset)}`;
  return { broadcasterId: moment.broadcaster_id, live: false, videoId: video.id, offsetSeconds: moment.stream_offset, durationSeconds: VOD_CLIP_SECONDS, title };
}

/** Makes the moment's Twitch clip once: a retry after the clip was made goes straight to its download. */
async function ensureClip(deps: AppDeps, moment: MomentRow, streamer: StreamerRow, signal: AbortSignal): Promise<string> {
  if (moment.clip_id) return moment.clip_id;
  // Said first: without an account nothing else (a past broadcast or not) matters.
  const connection = await twitchConnection(deps, moment.user_id);
  if (!connection.connected) throw new TwitchNotConnected();
  if (connection.status === 'reconnect') throw new TwitchReconnectNeeded();
  const { clipId } = await createTwitchClip(deps, moment.user_id, await clipRequest(deps, moment, streamer, signal), { signal });
  await updateMoment(deps.db, moment.id, { status: 'clipped', clip_id: clipId, error: null });
  await recordLog(deps.db, deps.logger, {
    level: 'INFO',
    logger: 'moments',
    message: `Clipped the moment in ${streamer.name}'s stream at ${streamOffsetLabel(moment.stream_offset)} as ${clipId}; it downloads next`,
    userId: moment.user_id,
  });
  return clipId;
}

/** What the moment says when its clip cannot be made; true when the job should try again. */
async function settleFailure(deps: AppDeps, moment: MomentRow, error: unknown, ctx: JobContext): Promise<boolean> {
  if (error instanceof AppError && WAITS_FOR_USER.has(error.message)) {
    await updateMoment(deps.db, moment.id, { status: 'found', error: error.message });
    return false;
  }
  const final = (error instanceof AppError && FINAL_CODES.has(error.code)) || ctx.attempts.last;
  if (!final) return true;
  const reason = publicReason(error);
  await updateMoment(deps.db, moment.id, { status: moment.clip_id ? 'clipped' : 'failed', error: reason });
  await recordLog(deps.db, deps.logger, {
    level: 'WARNING',
    logger: 'moments',
    message: `The moment in ${moment.streamer_name}'s stream at ${streamOffsetLabel(moment.stream_offset)} was not clipped: ${reason}`,
    userId: moment.user_id,
    error,
  });
  return false;
}

/**
 * The `moments/clip` job: a moment at or above its streamer's threshold becomes a Twitch clip made
 * with the user's connected account, then a run downloads it, renders it and follows the streamer's
 * publish mode like any clip, carrying the moment's score and reasons. While the streamer's other
 * run is busy the job tries again later.
 */
export function momentClipJob(deps: AppDeps): JobDefinition<{ momentId: string }> {
  return defineJob({
    ...MOMENT_CLIP_JOB,
    async run({ momentId }, ctx) {
      const moment = await selectMoment(deps.db, momentId);
      if (!moment || moment.status === 'skipped' || moment.status === 'failed') return;
      const streamer = await findStreamerById(deps.db, moment.streamer_id);
      if (!streamer) return;
      let clipId: string;
      try {
        clipId = await ensureClip(deps, moment, streamer, ctx.signal);
      } catch (error) {
        if (await settleFailure(deps, moment, error, ctx)) throw error;
        return;
      }
      try {
        await startMomentRun(deps.db, {
          userId: moment.user_id,
          streamer,
          clipIds: [clipId],
          moment: { score: moment.score, reasons: moment.reasons },
          maxConcurrency: deps.env.WORKER_CONCURRENCY,
        });
      } catch (error) {
        // The streamer's other run is busy: graphile-worker's backoff brings the job back.
        if (isUniqueViolation(error) && !ctx.attempts.last) throw new Error(`${streamer.name} has a download running; the moment's clip follows it`);
        const reason = isUniqueViolation(error) ? new AppError('CONFLICT', `Clip ${clipId} was made, but ${streamer.name} had another download running every time it was to be fetched`) : error;
        if (await settleFailure(deps, { ...moment, clip_id: clipId }, reason, ctx)) throw error;
      }
    },
  });
}
