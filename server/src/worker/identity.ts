import { randomUUID } from 'node:crypto';
import os from 'node:os';

/** Who this process is, recorded on the runs it executes so a crash can be told from a live worker. */
export interface WorkerIdentity {
  host: string;
  pid: number;
  instance: string;
}

export const PROCESS_IDENTITY: WorkerIdentity = { host: os.hostname(), pid: process.pid, instance: randomUUID() };
