import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The file a command name runs: itself when it has a slash, else the first match on PATH. */
function resolveCommand(command: string): string | null {
  if (command.includes('/')) return isExecutable(command) ? command : null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/**
 * util-linux's setpriv, when this is Linux and it is installed: `setpriv --pdeathsig KILL -- tool …`
 * asks the kernel to SIGKILL the tool the moment its parent (this Node process) dies, even by
 * SIGKILL or an OOM kill, then execs the tool in place (same pid, same kill semantics).
 */
const SETPRIV = process.platform === 'linux' ? resolveCommand('setpriv') : null;

/**
 * Spawns a tool (ffmpeg, ffprobe) that must not outlive this process: stdin ignored, stdout and
 * stderr piped, no shell. Where setpriv is missing the child is spawned directly, and recovery
 * kills what a dead process left behind before it deletes that process's work folder.
 */
export function spawnTied(binary: string, args: readonly string[]): ChildProcessByStdio<null, Readable, Readable> {
  const options = { stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], windowsHide: true };
  // A binary that cannot run is spawned directly, so the caller sees spawn's own ENOENT/EACCES
  // rather than setpriv's exit code 127.
  if (!SETPRIV || !resolveCommand(binary)) return spawn(binary, args, options);
  return spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', binary, ...args], options);
}

/** The pids (other than ours) whose command line mentions `text`, read from /proc (Linux only). */
async function processesMentioning(text: string): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text) && !(await isZombie(Number(entry)))) found.push(Number(entry));
  }
  return found;
}

/** A killed child whose parent died and that no one has reaped yet: gone in every way that matters. */
async function isZombie(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return true;
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

const LEFTOVER_WAIT_MS = 5_000;

/**
 * Kills every process still working in `folder` (a dead instance's work folder: its ffmpeg
 * children, when they were not tied to it) and waits until they are gone, so the folder can be
 * deleted without a late write landing in it. Returns how many it killed.
 */
export async function killProcessesUsing(folder: string): Promise<number> {
  const pids = await processesMentioning(folder);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + LEFTOVER_WAIT_MS;
  for (const pid of pids) {
    while (!(await isZombie(pid)) && Date.now() < deadline) await sleep(50);
  }
  return pids.length;
}
