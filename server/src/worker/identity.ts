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
export interface RecordedOwner {
  owner_host: string | null;
  owner_pid: number | null;
  owner_instance: string | null;
  heartbeat_at: Date | null;
}

/** A worker that has not reported for this long is taken as dead. */
export const HEARTBEAT_STALE_MS = 60_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that claimed a row is gone: on this host, its pid is dead (or is ours after
 * a restart under another instance id); anywhere, its heartbeat went silent.
 */
export function ownerIsGone(owner: RecordedOwner, self: WorkerIdentity, now: number): boolean {
  if (owner.owner_host === self.host && owner.owner_pid !== null && owner.owner_instance !== self.instance) {
    if (owner.owner_pid === self.pid || !processAlive(owner.owner_pid)) return true;
  }
  return owner.heartbeat_at !== null && now - owner.heartbeat_at.getTime() > HEARTBEAT_STALE_MS;
}
