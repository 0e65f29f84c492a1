import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** ffmpeg spawned directly: no progress parsing, no temporary name, nothing of the app around it. */
export function bareFfmpeg(ffmpeg: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`))));
  });
}

/**
 * CPU seconds used so far by this process and its finished children (/proc/self/stat utime, stime,
 * cutime, cstime in USER_HZ = 100 ticks). The machine may be shared: wall time then depends on
 * the neighbours, CPU time much less, so both are reported.
 */
export function cpuSecondsSoFar(): number {
  return statSeconds([11, 12, 13, 14]);
}

/** CPU seconds of this process's finished children alone (cutime, cstime): a child's run, without the bench's own work. */
export function childCpuSeconds(): number {
  return statSeconds([13, 14]);
}

function statSeconds(indices: readonly number[]): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command name start at field 3 (state); utime is field 14.
  return indices.reduce((sum, index) => sum + Number(fields[index]), 0) / 100;
}
