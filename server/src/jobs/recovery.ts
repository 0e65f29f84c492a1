import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../domains/deps.ts';
import { busyRunIds, recoverInterruptedRuns, requeueInterruptedRun } from '../domains/downloads/service.ts';
import { killProcessesUsing } from '../platform/processes.ts';
import { recoverInterruptedSubtitles, requeueInterruptedSubtitles, runningSubtitleRequestIds } from '../domains/subtitles/service.ts';
import { requeueInterruptedUpload } from '../domains/publishing/service.ts';
import { knownClipFolders, mediaRoot, workRoot } from '../domains/clips/service.ts';
import type { RecoveryScope, WorkerIdentity } from '../platform/identity.ts';
import { instanceIsDead } from './instances.ts';
import { POST_JOB, RECOVER_JOB, RENDER_JOB, RUN_JOB, SUBTITLE_JOB } from '../platform/queue/contracts.ts';
import { defineJob, isJobNamed } from '../platform/queue/define.ts';
import { forceUnlockWorkers, jobsLockedByDeadPools, type LockedJob } from '../platform/queue/queue.ts';

export interface RecoveryOptions {
  now?: number;
  /**
   * Whether silence (a stale heartbeat) counts as death. Only when this process has itself been
   * reaching the database for a while: right after an outage every process looks silent.
   */
  staleVerdicts?: boolean;
}

interface RecoveryReport {
  /** Dead processes cleaned up. */
  instances: number;
  /** Runs ended (interrupted, or never started). */
  runs: number;
  /** Subtitle requests ended as failed. */
  subtitles: number;
  /** Jobs of dead workers queued again (runs and requests they never started, unfinished uploads). */
  requeued: number;
}

/**
 * Finds the processes that died (pid gone on this host, or silent too long) and makes everything
 * they held true again: their graphile-worker locks are released at once (not after four hours),
 * work they had not started is queued again, work they had started is reported as interrupted,
 * and only their work folders are deleted — after any process still writing there is killed.
 * Runs at start-up, every minute (downloads/recover), and within a heartbeat of a process on this
 * host dying (instances.ts); safe to run anywhere at any time.
 */
export async function recoverDeadWork(deps: AppDeps, self: WorkerIdentity, options: RecoveryOptions = {}): Promise<RecoveryReport> {
  const now = options.now ?? Date.now();
  // Listed before the registrations are read: a folder seen here belongs to a registered process.
  const folders = existsSync(workRoot(deps.env.dataDir)) ? await readdir(workRoot(deps.env.dataDir)) : [];
  const instances = await deps.db.selectFrom('app_instances').selectAll().execute();
  const dead = instances.filter((row) => instanceIsDead(row, self, now, options.staleVerdicts ?? true));
  const live = instances.filter((row) => !dead.includes(row));
  const scope: RecoveryScope = {
    self,
    now,
    staleVerdicts: options.staleVerdicts ?? true,
    live: new Set(live.map((row) => row.id)),
    dead: new Set(dead.map((row) => row.id)),
  };

  const interrupted = await jobsLockedByDeadPools(
    deps.db,
    live.flatMap((row) => row.worker_pool_ids),
    dead.flatMap((row) => row.worker_pool_ids),
    new Date(now),
  );
  await forceUnlockWorkers(deps.db, [...new Set(interrupted.map((job) => job.locked_by))]);
  let requeued = 0;
  for (const job of interrupted) if (await requeueInterruptedJob(deps, job)) requeued += 1;

  const runs = await recoverInterruptedRuns(deps, scope);
  const subtitles = await recoverInterruptedSubtitles(deps, scope);
  await removeDeadWorkFolders(deps, folders, scope);
  if (dead.length) await deps.db.deleteFrom('app_instances').where('id', 'in', dead.map((row) => row.id)).execute();
  await removeOrphanClipFolders(deps);
  return { instances: dead.length, runs, subtitles, requeued };
}

/**
 * Every minute: catches processes that died on other machines (their heartbeat goes silent) and
 * jobs locked by dead workers. `staleVerdicts` says whether this process trusts silence right now.
 */
export function recoverJob(deps: AppDeps, identity: WorkerIdentity, staleVerdicts: () => boolean = () => true) {
  return defineJob({
    ...RECOVER_JOB,
    run: async () => {
      const report = await recoverDeadWork(deps, identity, { staleVerdicts: staleVerdicts() });
      if (report.instances + report.runs + report.subtitles + report.requeued > 0) deps.logger.warn({ ...report }, 'recovered work of stopped processes');
    },
  });
}

/**
 * A job a dead worker held. Work it had not started yet (a run nobody claimed, a queued subtitle
 * request) starts again; an unfinished upload carries on from its saved publish_id. Jobs with
 * attempts left run again by themselves once unlocked.
 */
async function requeueInterruptedJob(deps: AppDeps, job: LockedJob): Promise<boolean> {
  const id = job.key?.slice(job.key.indexOf(':') + 1);
  if (!id) return false;
  if (job.task_identifier === RUN_JOB.name) return requeueInterruptedRun(deps, id);
  if (job.task_identifier === SUBTITLE_JOB.name || job.task_identifier === RENDER_JOB.name) return requeueInterruptedSubtitles(deps, id);
  if (isJobNamed(POST_JOB, job.task_identifier)) return requeueInterruptedUpload(deps, id);
  return false;
}

/**
 * Deletes the work folders of processes that are not alive (media/.work/<instance id>). A name that
 * is no instance at all is an older version's layout (<run id>, subtitles-<request id>) and goes
 * only when no busy run or running request has that name.
 */
async function removeDeadWorkFolders(deps: AppDeps, folders: readonly string[], scope: RecoveryScope): Promise<void> {
  // This process's own folder is never another's leftover, registered or not (a worker started
  // without main.ts, as tests and embedding code do, has no app_instances row).
  const others = folders.filter((name) => name !== scope.self.instance);
  const unregistered = others.filter((name) => !scope.live.has(name) && !scope.dead.has(name));
  const legacyBusy = unregistered.length ? await legacyBusyFolders(deps) : new Set<string>();
  for (const name of others) {
    if (scope.live.has(name) || legacyBusy.has(name)) continue;
    const folder = path.join(workRoot(deps.env.dataDir), name);
    await killProcessesUsing(folder);
    await rm(folder, { recursive: true, force: true });
  }
}

async function legacyBusyFolders(deps: AppDeps): Promise<Set<string>> {
  const [runs, requests] = await Promise.all([busyRunIds(deps.db), runningSubtitleRequestIds(deps.db)]);
  return new Set([...runs, ...requests.map((id) => `subtitles-${id}`)]);
}

/** Ten minutes: longer than the gap between moving a finished clip into place and saving its row. */
const ORPHAN_MIN_AGE_MS = 10 * 60_000;

/** Clip folders no row points at (a crash between moving a clip into place and saving it). */
async function removeOrphanClipFolders(deps: AppDeps): Promise<void> {
  // Only local storage keeps clip folders on this machine's disk.
  if (deps.storage.kind !== 'local') return;
  const root = mediaRoot(deps.env.dataDir);
  if (!existsSync(root)) return;
  for (const owner of await readdir(root)) {
    if (owner.startsWith('.')) continue;
    const ownerDir = path.join(root, owner);
    const folders = await readdir(ownerDir).catch(() => [] as string[]);
    if (!folders.length) continue;
    const known = await knownClipFolders(deps.db, folders.map((folder) => `${owner}/${folder}`));
    for (const folder of folders) {
      if (known.has(`${owner}/${folder}`)) continue;
      const info = await stat(path.join(ownerDir, folder)).catch(() => null);
      if (info && Date.now() - info.mtimeMs > ORPHAN_MIN_AGE_MS) await rm(path.join(ownerDir, folder), { recursive: true, force: true });
    }
  }
}
