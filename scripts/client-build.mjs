// Builds the browser client when its sources are newer than the last build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'client/dist/index.html');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function clientIsStale() {
  if (!existsSync(builtIndex)) return true;
  const built = statSync(builtIndex).mtimeMs;
  const sources = ['client/src', 'client/index.html', 'client/vite.config.ts', 'shared/src'].map((source) => path.join(root, source));
  return sources.some((source) => newestMtime(source) > built);
}

export function ensureClientBuilt() {
  if (process.env.SKIP_CLIENT_BUILD === '1' || !clientIsStale()) return;
  console.log('Building the web client…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: path.join(root, 'client'), stdio: 'inherit' });
}
