import { momentScoreLabel, streamOffsetLabel, type ListMomentsInput, type Moment } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { enqueue } from '../../platform/queue/queue.ts';
import { MOMENT_CLIP_JOB } from '../../platform/queue/contracts.ts';
import { recordLog } from '../logs/service.ts';
import { saveTwitchUser, watchedStreamers, type StreamerRow } from '../streamers/service.ts';
import { claimDueChecks, insertMoment, selectMoments, setLiveState, syncWatchRows, type LiveWatchRow, type MomentRow } from './queries.ts';

export type { LiveWatchRow, MomentRow } from './queries.ts';

/** Helix is asked whether a watched streamer is live at most this often (the check runs each minute). */
export const LIVE_CHECK_SECONDS = 55;
/**
 * Bursts closer than a clip's length are one moment: a clip made of the first already shows the
 * second. Twitch's live clips are 30 s long.
 */
export const MOMENT_MERGE_SECONDS = 30;

export function toMoment(row: MomentRow): Moment {
  return {
    id: row.id,
    streamer: row.streamer_name,
    detected_at: row.detected_at.toISOString(),
    stream_offset: row.stream_offset,
    score: Math.round(row.score * 1000) / 1000,
    reasons: row.reasons,
    clip_id: row.clip_id,
    status: row.status,
    error: row.error,
  };
}

/** The user's moments, newest first (optionally one streamer's). */
export async function listMoments(db: DbOrTrx, userId: string, input: ListMomentsInput): Promise<Moment[]> {
  const rows = await selectMoments(db, userId, { streamerName: input.streamer, limit: input.limit });
  return rows.map(toMoment);
}

/** What the scorer found: where in the stream, how strong, and why. */
export interface MomentCandidate {
  streamOffsetSeconds: number;
  score: number;
  reasons: string[];
}

/** The stream a reader watches: who, which stream, since when. */
export interface WatchedStream {
  streamer: StreamerRow;
  broadcasterId: string;
  streamId: string;
  startedAt: Date;
}

function belowThreshold(score: number, threshold: number): string {
  return `Below this streamer's threshold (${momentScoreLabel(score)} < ${momentScoreLabel(threshold)})`;
}

/**
 * Saves a moment the chat showed; one at or above the streamer's threshold queues the job that
 * clips it, in the same transaction. A burst another reader already saved (closer than a clip's
 * length) is dropped: undefined then.
 */
export async function recordMoment(deps: Pick<AppDeps, 'db' | 'logger'>, stream: WatchedStream, candidate: MomentCandidate): Promise<MomentRow | undefined> {
  const { streamer } = stream;
  const strong = candidate.score >= streamer.moment_threshold;
  const row = await deps.db.transaction().execute(async (trx) => {
    const saved = await insertMoment(
      trx,
      {
        user_id: streamer.user_id,
        streamer_id: streamer.id,
        streamer_name: streamer.name,
        broadcaster_id: stream.broadcasterId,
        stream_id: stream.streamId,
        stream_started_at: stream.startedAt,
        stream_offset: Math.max(0, Math.round(candidate.streamOffsetSeconds)),
        score: Math.min(1, Math.max(0, candidate.score)),
        reasons: JSON.stringify(candidate.reasons),
        status: strong ? 'found' : 'skipped',
        error: strong ? null : belowThreshold(candidate.score, streamer.moment_threshold),
      },
      MOMENT_MERGE_SECONDS,
    );
    if (saved && strong) await enqueue(trx, MOMENT_CLIP_JOB, { momentId: saved.id });
    return saved;
  });
  if (row) {
    const at = streamOffsetLabel(row.stream_offset);
    await recordLog(deps.db, deps.logger, {
      level: 'INFO',
      logger: 'moments',
      message: `Moment in ${streamer.name}'s stream at ${at} (${momentScoreLabel(row.score)}): ${candidate.reasons.join('; ')}`,
      userId: streamer.user_id,
    });
  }
  return row;
}

/**
 * The `moments/check-live` job: keeps a row per watched streamer and asks Helix, for the rows due,
 * which of them are live (100 per request). A stream that ends keeps its id, so its moments can
 * still be clipped from the past broadcast.
 */
export async function checkLiveStreams(deps: Pick<AppDeps, 'db' | 'twitch' | 'logger'>, now = new Date(), signal?: AbortSignal): Promise<void> {
  const streamers = await watchedStreamers(deps.db);
  await syncWatchRows(
    deps.db,
    streamers.map((streamer) => ({ streamerId: streamer.id, userId: streamer.user_id, login: streamer.name.toLowerCase(), broadcasterId: streamer.twitch_user_id })),
  );
  if (!deps.twitch) return;
  const twitch = deps.twitch;
  const due = await claimDueChecks(deps.db, LIVE_CHECK_SECONDS, now);
  if (!due.length) return;
  const known: LiveWatchRow[] = [];
  for (const row of due) {
    if (row.broadcaster_id) {
      known.push(row);
      continue;
    }
    const user = row.login ? await twitch.getUserByLogin(row.login, signal) : null;
    if (!user) continue;
    await saveTwitchUser(deps.db, row.streamer_id, user);
    known.push({ ...row, broadcaster_id: user.id });
  }
  const live = await twitch.getLiveStreams(
    known.map((row) => row.broadcaster_id!),
    signal,
  );
  for (const row of known) {
    const stream = live.get(row.broadcaster_id!);
    await setLiveState(deps.db, row.streamer_id, {
      live: Boolean(stream),
      broadcaster_id: row.broadcaster_id,
      stream_id: stream?.id ?? row.stream_id,
      stream_started_at: stream ? new Date(stream.started_at) : row.stream_started_at,
      stream_title: stream?.title ?? row.stream_title,
    });
    if (stream && stream.id !== row.stream_id) deps.logger.info({ streamer: row.login, streamId: stream.id }, 'watched streamer went live');
  }
}
