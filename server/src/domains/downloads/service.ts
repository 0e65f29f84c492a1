import { type ClipMoment, type StartDownloadInput, type StatusEntry, type StatusMap, alreadyDownloading } from '@clipshift/shared';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { concurrencyFor } from '../settings/service.ts';
import { findStreamer, streamerNames, type StreamerRow } from '../streamers/service.ts';
import { conflict } from '../../platform/errors.ts';
import { freeDiskBytes } from '../../platform/disk.ts';
import type { Env } from '../../platform/env.ts';
import { mediaRoot, workRoot } from '../clips/service.ts';
import { HEARTBEAT_STALE_MS } from '../../platform/identity.ts';
import { removeJob } from '../../platform/queue/queue.ts';
import { queueRunJob, runJobKey } from './run-jobs.ts';
import { insertRun, selectActiveRun, selectLatestRuns, updateRun, type RunRow } from './queries.ts';

export type { RunRow };
export { queueRunJob, runJobKey } from './run-jobs.ts';
export { busyRunIds, recoverInterruptedRuns, requeueInterruptedRun } from './recovery.ts';

function toStatusEntry(run: RunRow): StatusEntry {
  return {
    status: run.status,
    clips_downloaded: run.clips_downloaded,
    clips_total: run.clips_total,
    clips_failed: run.clips_failed,
    started_at: run.started_at.toISOString(),
    completed_at: run.completed_at ? run.completed_at.toISOString() : null,
    error: run.error,
    progress: run.status === 'downloading' || run.status === 'stopping' ? run.progress : [],
    ...(run.skipped ? { skipped: run.skipped } : {}),
  };
}

/** The latest run of every streamer of the user that has run, keyed by streamer name. */
export async function statusMap(db: DbOrTrx, userId: string): Promise<StatusMap> {
  const runs = await selectLatestRuns(db, userId);
  const latest = new Map(runs.map((run) => [run.streamer_id, run]));
  const names = await streamerNames(db, [...latest.keys()]);
  const map: StatusMap = {};
  for (const { id, name } of names.sort((a, b) => a.name.localeCompare(b.name))) map[name] = toStatusEntry(latest.get(id)!);
  return map;
}

/** Whether the streamer has a run going: the busy rule of starting, editing and deleting. */
export async function hasActiveRun(db: DbOrTrx, streamerId: string): Promise<boolean> {
  return (await selectActiveRun(db, streamerId)) !== undefined;
}

const MB = 1024 * 1024;

export interface DiskShortage {
  freeMb: number;
  neededMb: number;
  /** Where it was measured, for the operator's log (users are not told server paths). */
  dir: string;
}

/**
 * Whether the scratch folder and, with local storage, the clip library (both under DATA_DIR/media,
 * measured apart so that either may move to another disk) have MIN_FREE_DISK_MB free; the tighter
 * one if not. A bucket has no free space to measure.
 */
export async function diskShortage(env: Pick<Env, 'dataDir' | 'MIN_FREE_DISK_MB' | 'STORAGE'>): Promise<DiskShortage | null> {
  let shortage: DiskShortage | null = null;
  const dirs = env.STORAGE === 'local' ? [mediaRoot(env.dataDir), workRoot(env.dataDir)] : [workRoot(env.dataDir)];
  for (const dir of dirs) {
    const freeMb = Math.floor((await freeDiskBytes(dir)) / MB);
    if (freeMb < env.MIN_FREE_DISK_MB && (!shortage || freeMb < shortage.freeMb)) shortage = { freeMb, neededMb: env.MIN_FREE_DISK_MB, dir };
  }
  return shortage;
}

export const diskShortageMessage = (shortage: DiskShortage) =>
  `Not enough free disk space to start a download: ${shortage.freeMb} MB free on the server, at least ${shortage.neededMb} MB needed. Delete clips you no longer need, or ask the operator to free space or lower MIN_FREE_DISK_MB.`;

/** Refuses (409) to start a run while the disk is short of space: downloads and renders would fail half-way. */
export async function ensureRoomForRun(env: Pick<Env, 'dataDir' | 'MIN_FREE_DISK_MB' | 'STORAGE'>): Promise<void> {
  const shortage = await diskShortage(env);
  if (shortage) throw conflict(diskShortageMessage(shortage));
}

interface StartedRun {
  run: RunRow;
  streamer: StreamerRow;
}

/**
 * Creates a run and queues its job in one transaction. The streamer row lock orders this against
 * edits and deletes; the partial unique index makes a second busy run impossible even across processes.
 */
export async function startRun(
  db: Db,
  userId: string,
  input: Omit<StartDownloadInput, 'name'> & { name: string },
  options: { trigger: 'manual' | 'schedule'; maxConcurrency: number; streamer?: StreamerRow },
  trx?: DbOrTrx,
): Promise<StartedRun> {
  const work = async (tx: DbOrTrx): Promise<StartedRun> => {
    const streamer = options.streamer ?? (await findStreamer(tx, userId, input.name, { lock: true }));
    if (await hasActiveRun(tx, streamer.id)) throw conflict(alreadyDownloading(streamer.name));
    const run = await insertRun(tx, {
      user_id: userId,
      streamer_id: streamer.id,
      trigger: options.trigger,
      clip_limit: input.limit ?? input.clip_limit ?? streamer.clip_limit,
      vertical: input.vertical ?? streamer.vertical,
      // A start without a concurrency (a schedule, a script) uses the one saved in Settings.
      concurrency: Math.min(await concurrencyFor(tx, userId, input.concurrency), options.maxConcurrency),
    });
    await queueRunJob(tx, run.id);
    return { run, streamer };
  };
  try {
    return trx ? await work(trx) : await db.transaction().execute(work);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(alreadyDownloading(input.name));
    throw error;
  }
}

/**
 * Asks the streamer's run to stop. A run no worker has picked up yet (or whose worker is gone)
 * stops at once; a live one goes to `stopping` and its worker cancels transfers and ffmpeg.
 */
export async function requestStop(db: Db, userId: string, name: string, now = new Date()): Promise<StreamerRow> {
  return db.transaction().execute(async (trx) => {
    const streamer = await findStreamer(trx, userId, name, { lock: true });
    const run = await selectActiveRun(trx, streamer.id, { lock: true });
    if (!run) throw conflict(`No download is running for ${streamer.name}`);
    const orphaned = !run.heartbeat_at || now.getTime() - run.heartbeat_at.getTime() > HEARTBEAT_STALE_MS;
    if (orphaned) {
      await removeJob(trx, runJobKey(run.id));
      await updateRun(trx, run.id, { status: 'stopped', completed_at: now, progress: '[]' });
    } else {
      await updateRun(trx, run.id, { status: 'stopping' });
    }
    return streamer;
  });
}

/**
 * A run for the clips a moment made, queued with its job in the caller's transaction. A streamer
 * has one busy run at a time: while another runs this throws the unique violation, and the
 * moment's job tries again later.
 */
export async function startMomentRun(
  trx: DbOrTrx,
  input: { userId: string; streamer: StreamerRow; clipIds: readonly string[]; moment: ClipMoment; maxConcurrency: number },
): Promise<RunRow> {
  const run = await insertRun(trx, {
    user_id: input.userId,
    streamer_id: input.streamer.id,
    trigger: 'moment',
    clip_limit: input.clipIds.length,
    vertical: input.streamer.vertical,
    concurrency: Math.min(input.clipIds.length, input.maxConcurrency),
    clip_ids: JSON.stringify(input.clipIds),
    moment: JSON.stringify(input.moment),
  });
  await queueRunJob(trx, run.id);
  return run;
}
