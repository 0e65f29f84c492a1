import type { AppDeps } from '../deps.ts';
import { watchMoments } from '../../engines/moments/index.ts';
import { startBeating } from '../../platform/beat.ts';
import type { WorkerIdentity } from '../../platform/identity.ts';
import { findStreamerById } from '../streamers/service.ts';
import { claimReaders, releaseReaders, renewReaders, type LiveWatchRow } from './queries.ts';
import { recordMoment, type MomentCandidate, type WatchedStream } from './service.ts';

export interface ChatWatcherOptions {
  identity: WorkerIdentity;
  /** TWITCH_CHAT_URL. */
  chatUrl: string;
  /** Streams one process reads at most (reading is light: a socket and a few counters each). */
  capacity?: number;
  /** How often the process renews its leases and looks for streams nobody reads. */
  tickMs?: number;
  /** A reader's lease: another process takes the stream over once this has passed without renewal. */
  leaseSeconds?: number;
  /** Reconnect timing of the chat reader (tests shorten it). */
  backoff?: { initialMs?: number; maxMs?: number };
}

export interface ChatWatcher {
  /** One round: renew, drop what ended or was lost, take up streams nobody reads. */
  tick(): Promise<void>;
  /** Streams this process reads now, by streamer row id. */
  reading(): string[];
  /** Stops every reader (each confirms its pending moment) and hands the streams back. */
  stop(): Promise<void>;
}

interface Reader {
  streamId: string;
  controller: AbortController;
  /** Ends once the chat is closed and every moment it found is saved. */
  done: Promise<void>;
}

const DEFAULTS = { capacity: 50, tickMs: 5_000, leaseSeconds: 30 };

/**
 * Reads the live chat of watched streams in this process. Which process reads a stream is a lease
 * in live_watches: taken when free or lapsed, renewed every tick, handed back on stop, so across
 * all workers each live stream has one reader, and a dead worker's streams move on within a lease.
 * Whether a stream is live comes from the live check (moments/check-live); a stream that ended or
 * changed stops its reader, which confirms its pending moment first.
 */
export function startChatWatcher(deps: AppDeps, options: ChatWatcherOptions): ChatWatcher {
  const capacity = options.capacity ?? DEFAULTS.capacity;
  const leaseSeconds = options.leaseSeconds ?? DEFAULTS.leaseSeconds;
  const instance = options.identity.instance;
  const readers = new Map<string, Reader>();
  let stopped = false;

  async function endReader(streamerId: string): Promise<void> {
    const reader = readers.get(streamerId);
    if (!reader) return;
    reader.controller.abort();
    await reader.done;
    readers.delete(streamerId);
  }

  async function startReader(row: LiveWatchRow): Promise<void> {
    const streamer = await findStreamerById(deps.db, row.streamer_id);
    if (!streamer?.watch_live || !row.stream_id || !row.stream_started_at || !row.broadcaster_id || !row.login) {
      await releaseReaders(deps.db, instance, [row.streamer_id]);
      return;
    }
    const stream: Omit<WatchedStream, 'streamer'> = { broadcasterId: row.broadcaster_id, streamId: row.stream_id, startedAt: row.stream_started_at };
    const controller = new AbortController();
    // Moments are saved one after another, in the order the chat showed them.
    let saving = Promise.resolve();
    const save = (candidate: MomentCandidate) => {
      saving = saving.then(async () => {
        // The streamer's threshold as it is now (it may change while the stream runs).
        const current = await findStreamerById(deps.db, row.streamer_id);
        if (current) await recordMoment(deps, { ...stream, streamer: current }, candidate);
      });
      saving = saving.catch((error: unknown) => deps.logger.error({ err: error, streamer: row.login }, 'a moment could not be saved'));
    };
    const done = watchMoments({
      channel: row.login,
      streamStartedAt: row.stream_started_at.getTime(),
      signal: controller.signal,
      url: options.chatUrl,
      backoff: options.backoff,
      onMoment: (moment) => save({ streamOffsetSeconds: moment.streamOffsetSeconds, score: moment.score, reasons: moment.reasons }),
    })
      .then((result) => deps.logger.info({ streamer: row.login, ...result.chat, ...result.scoring }, 'stopped reading chat'))
      .catch((error: unknown) => deps.logger.error({ err: error, streamer: row.login }, 'chat reader failed'))
      .then(() => saving);
    readers.set(row.streamer_id, { streamId: row.stream_id, controller, done });
    deps.logger.info({ streamer: row.login, streamId: row.stream_id }, 'reading live chat');
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    const held = new Map((await renewReaders(deps.db, instance, [...readers.keys()], leaseSeconds)).map((row) => [row.streamer_id, row]));
    for (const [streamerId, reader] of readers) {
      const row = held.get(streamerId);
      if (row && row.live && row.stream_id === reader.streamId) continue;
      await endReader(streamerId);
      // Lost (another process took it) or gone: nothing to hand back; ended or changed: free it.
      if (row) await releaseReaders(deps.db, instance, [streamerId]);
    }
    const room = capacity - readers.size;
    if (room <= 0 || stopped) return;
    for (const row of await claimReaders(deps.db, instance, room, leaseSeconds)) await startReader(row);
  }

  const beating = startBeating(tick, options.tickMs ?? DEFAULTS.tickMs, (error) => deps.logger.warn({ err: error }, 'chat watcher round failed'));
  return {
    tick,
    reading: () => [...readers.keys()],
    async stop() {
      stopped = true;
      await beating.stop();
      const ids = [...readers.keys()];
      await Promise.all(ids.map(endReader));
      await releaseReaders(deps.db, instance, ids).catch((error: unknown) => deps.logger.warn({ err: error }, 'chat readers could not be handed back'));
    },
  };
}
