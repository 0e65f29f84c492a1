import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../deps.ts';
import { recordLog } from '../logs/service.ts';
import { ownerIsGone, type WorkerIdentity } from '../worker/identity.ts';
import { removeJob } from '../worker/jobs.ts';
import { mediaRoot, workRoot } from '../clips/files.ts';
import { runJobKey, type RunRow } from './service.ts';

export const INTERRUPTED_MESSAGE = 'Interrupted: the app stopped while this download was running. Start it again to fetch the remaining clips.';

/** A run is dead if its process is gone (see ownerIsGone). */
export function isDeadRun(run: RunRow, self: WorkerIdentity, now: number): boolean {
  return ownerIsGone(run, self, now);
}

/**
 * Makes the state users see true again after a crash: runs whose worker died end as `error`
 * (interrupted) — or `stopped` if a stop had been asked — and their jobs are dropped. Clips they
 * finished stay; their half-done work files go.
 */
export async function recoverInterruptedRuns(deps: AppDeps, self: WorkerIdentity, now = Date.now()): Promise<number> {
  const active = await deps.db.selectFrom('download_runs').selectAll().where('status', 'in', ['downloading', 'stopping']).execute();
  let recovered = 0;
  for (const run of active.filter((candidate) => isDeadRun(candidate, self, now))) {
    const stopped = run.status === 'stopping';
    const updated = await deps.db
      .updateTable('download_runs')
      .set({
        status: stopped ? 'stopped' : 'error',
        error: stopped ? null : INTERRUPTED_MESSAGE,
        completed_at: new Date(now),
        progress: '[]',
      })
      .where('id', '=', run.id)
      .where('status', 'in', ['downloading', 'stopping'])
      .where('owner_instance', 'is not distinct from', run.owner_instance)
      .executeTakeFirst();
    if (!updated.numUpdatedRows) continue;
    recovered += 1;
    await removeJob(deps.db, runJobKey(run.id));
    const streamer = await deps.db.selectFrom('streamers').select('name').where('id', '=', run.streamer_id).executeTakeFirst();
    await recordLog(deps.db, deps.logger, {
      level: stopped ? 'INFO' : 'WARNING',
      logger: 'downloads',
      message: stopped
        ? `The download for ${streamer?.name ?? 'a streamer'} was stopped while the app was down`
        : `The download for ${streamer?.name ?? 'a streamer'} was interrupted (${run.clips_downloaded} of ${run.clips_total} clips had finished)`,
      userId: run.user_id,
    });
  }
  await removeStaleWorkFiles(deps);
  return recovered;
}

/** Work folders of runs that are no longer busy, and clip folders no row points at. */
async function removeStaleWorkFiles(deps: AppDeps): Promise<void> {
  const work = workRoot(deps.env.dataDir);
  if (existsSync(work)) {
    const busy = new Set(
      (await deps.db.selectFrom('download_runs').select('id').where('status', 'in', ['downloading', 'stopping']).execute()).map((row) => row.id),
    );
    for (const entry of await readdir(work)) {
      if (!busy.has(entry)) await rm(path.join(work, entry), { recursive: true, force: true });
    }
  }
  await removeOrphanClipFolders(deps);
}

/** Ten minutes: longer than the gap between moving a finished clip into place and saving its row. */
const ORPHAN_MIN_AGE_MS = 10 * 60_000;

async function removeOrphanClipFolders(deps: AppDeps): Promise<void> {
  const root = mediaRoot(deps.env.dataDir);
  if (!existsSync(root)) return;
  for (const owner of await readdir(root)) {
    if (owner.startsWith('.')) continue;
    const ownerDir = path.join(root, owner);
    const folders = await readdir(ownerDir).catch(() => [] as string[]);
    if (!folders.length) continue;
    const known = new Set(
      (
        await deps.db
          .selectFrom('clips')
          .select('files_dir')
          .where('files_dir', 'in', folders.map((folder) => `${owner}/${folder}`))
          .execute()
      ).map((row) => row.files_dir),
    );
    for (const folder of folders) {
      if (known.has(`${owner}/${folder}`)) continue;
      const info = await stat(path.join(ownerDir, folder)).catch(() => null);
      if (info && Date.now() - info.mtimeMs > ORPHAN_MIN_AGE_MS) await rm(path.join(ownerDir, folder), { recursive: true, force: true });
    }
  }
}

