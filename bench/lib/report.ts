import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const BENCHMARKS_DOC = path.resolve(import.meta.dirname, '../../docs/benchmarks.md');

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function machineDescription(extra: string[] = []): Promise<string> {
  const cpuinfo = existsSync('/proc/cpuinfo') ? await readFile('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown CPU';
  return [
    `- CPU: ${model}, ${os.cpus().length} cores`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${process.version} on ${os.platform()} ${os.release()}`,
    ...extra.map((line) => `- ${line}`),
    `- Measured: ${new Date().toISOString()}`,
  ].join('\n');
}

/** Replaces (or appends) the `## {title}` section of docs/benchmarks.md, keeping the others. */
export async function writeSection(title: string, body: string): Promise<void> {
  const header = '# Benchmarks\n\nFigures written by `npm run bench:*`; each section says how to re-run it.\n\n';
  const current = existsSync(BENCHMARKS_DOC) ? await readFile(BENCHMARKS_DOC, 'utf8') : header;
  const sections = current.split(/^(?=## )/m);
  const heading = `## ${title}\n`;
  const next = `${heading}\n${body.trim()}\n\n`;
  const index = sections.findIndex((section) => section.startsWith(heading));
  if (index >= 0) sections[index] = next;
  else sections.push(next);
  await writeFile(BENCHMARKS_DOC, sections.join(''));
}
