import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { DownloadRunsTable, RunProgressItem, RunStatus } from '../../platform/db/schema.ts';
import type { WorkerIdentity } from '../../platform/identity.ts';

/** SQL of the download_runs table, which the downloads domain owns; other domains use service.ts. */

export type RunRow = Selectable<DownloadRunsTable>;

/** The statuses of a run that is going: at most one per streamer (a partial unique index). */
export const ACTIVE_RUN = ['downloading', 'stopping'] as const;

/** The latest run of every streamer of the user that has run. */
export function selectLatestRuns(db: DbOrTrx, userId: string): Promise<RunRow[]> {
  return db
    .selectFrom('download_runs')
    .distinctOn('streamer_id')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('streamer_id')
    .orderBy('started_at', 'desc')
    .execute();
}

/** The streamer's run that is going, if any; optionally row-locked. */
export function selectActiveRun(db: DbOrTrx, streamerId: string, options: { lock?: boolean } = {}): Promise<RunRow | undefined> {
  let query = db.selectFrom('download_runs').selectAll().where('streamer_id', '=', streamerId).where('status', 'in', ACTIVE_RUN);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Every run that is going, of every user (recovery). */
export function selectActiveRuns(db: DbOrTrx): Promise<RunRow[]> {
  return db.selectFrom('download_runs').selectAll().where('status', 'in', ACTIVE_RUN).execute();
}

export function selectRunOwner(db: DbOrTrx, runId: string): Promise<Pick<RunRow, 'status' | 'owner_instance'> | undefined> {
  return db.selectFrom('download_runs').select(['status', 'owner_instance']).where('id', '=', runId).executeTakeFirst();
}

export function insertRun(db: DbOrTrx, values: Insertable<DownloadRunsTable>): Promise<RunRow> {
  return db.insertInto('download_runs').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateRun(db: DbOrTrx, runId: string, values: Updateable<DownloadRunsTable>): Promise<void> {
  await db.updateTable('download_runs').set(values).where('id', '=', runId).execute();
}

/** Adds one to a clip counter; in SQL, since the run's clips finish in parallel. */
export async function countRunClip(db: DbOrTrx, runId: string, counter: 'clips_downloaded' | 'clips_failed'): Promise<void> {
  await db
    .updateTable('download_runs')
    .set((eb) => ({ [counter]: eb(counter, '+', 1) }))
    .where('id', '=', runId)
    .execute();
}

/** Takes the run for this process while it is going; undefined when it no longer is. */
export function claimActiveRun(db: DbOrTrx, runId: string, identity: WorkerIdentity): Promise<RunRow | undefined> {
  return db
    .updateTable('download_runs')
    .set({ owner_host: identity.host, owner_pid: identity.pid, owner_instance: identity.instance, heartbeat_at: new Date(), clips_failed: 0 })
    .where('id', '=', runId)
    .where('status', 'in', ACTIVE_RUN)
    .returningAll()
    .executeTakeFirst();
}

/** Makes the downloading run ownerless again, if this process still owns it; whether it did. */
export async function releaseRun(db: DbOrTrx, runId: string, instance: string): Promise<boolean> {
  const released = await db
    .updateTable('download_runs')
    .set({ owner_host: null, owner_pid: null, owner_instance: null, heartbeat_at: null, progress: '[]' })
    .where('id', '=', runId)
    .where('owner_instance', '=', instance)
    .where('status', '=', 'downloading')
    .executeTakeFirst();
  return released.numUpdatedRows > 0n;
}

/** Saves the heartbeat and progress of a run this process owns; its status, or undefined once it is not this process's. */
export async function beatRun(db: DbOrTrx, runId: string, instance: string, progress: readonly RunProgressItem[]): Promise<RunStatus | undefined> {
  const row = await db
    .updateTable('download_runs')
    .set({ heartbeat_at: new Date(), progress: JSON.stringify(progress) })
    .where('id', '=', runId)
    .where('owner_instance', '=', instance)
    .returning('status')
    .executeTakeFirst();
  return row?.status;
}

/**
 * Ends a run that is going, guarded by its owner (null for an ownerless one), so a run another
 * process has meanwhile claimed is left alone. Returns whether it ended.
 */
export async function endActiveRun(
  db: DbOrTrx,
  runId: string,
  owner: string | null,
  end: { status: RunStatus; error: string | null; completed_at: Date },
): Promise<boolean> {
  const ended = await db
    .updateTable('download_runs')
    .set({ ...end, progress: '[]' })
    .where('id', '=', runId)
    .where('status', 'in', ACTIVE_RUN)
    .where('owner_instance', 'is not distinct from', owner)
    .executeTakeFirst();
  return ended.numUpdatedRows > 0n;
}
