import { randomUUID } from 'node:crypto';
import os from 'node:os';

/** Who this process is, recorded on the runs it executes so a crash can be told from a live worker. */
export interface WorkerIdentity {
  host: string;
  pid: number;
  instance: string;
}

export const PROCESS_IDENTITY: WorkerIdentity = { host: os.hostname(), pid: process.pid, instance: randomUUID() };

/** What a table records about the process working on a row. */
interface RecordedOwner {
  owner_host: string | null;
  owner_pid: number | null;
  owner_instance: string | null;
  heartbeat_at: Date | null;
}

/** A worker that has not reported for this long is taken as dead. */
export const HEARTBEAT_STALE_MS = 60_000;

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a process on `host` with `pid` is certainly gone, seen from `self` (another instance). */
export function pidIsGone(host: string | null, pid: number | null, self: WorkerIdentity): boolean {
  if (host !== self.host || pid === null) return false;
  // Our own pid under another instance id: an earlier life of this pid (a restarted container).
  return pid === self.pid || !processAlive(pid);
}

/**
 * Whether the process that claimed a row is gone: on this host, its pid is dead (or is ours after
 * a restart under another instance id); anywhere, its heartbeat went silent — a verdict only
 * trusted when `staleVerdicts` (the judging process has itself been reaching the database for a
 * while, so silence is the owner's and not a shared outage's).
 */
export function ownerIsGone(owner: RecordedOwner, self: WorkerIdentity, now: number, staleVerdicts = true): boolean {
  if (owner.owner_instance !== self.instance && pidIsGone(owner.owner_host, owner.owner_pid, self)) return true;
  return staleVerdicts && owner.heartbeat_at !== null && now - owner.heartbeat_at.getTime() > HEARTBEAT_STALE_MS;
}

/** What one recovery pass knows about the processes registered in app_instances. */
export interface RecoveryScope {
  self: WorkerIdentity;
  now: number;
  staleVerdicts: boolean;
  live: ReadonlySet<string>;
  dead: ReadonlySet<string>;
}

/**
 * Whether the work on a claimed row is dead in this pass: its process is (by its registration, or
 * by the row's own record for an owner that never registered), or the row's own heartbeat went
 * silent — a live process whose task ended without saying so (its task beats while it runs).
 */
export function ownerIsDead(owner: RecordedOwner, scope: RecoveryScope): boolean {
  if (owner.owner_instance === null) return false;
  if (scope.dead.has(owner.owner_instance)) return true;
  return ownerIsGone(owner, scope.self, scope.now, scope.staleVerdicts);
}
