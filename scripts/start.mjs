// `npm start`: builds the browser client when its sources are newer than the build, then runs the
// server (web + worker + embedded database unless configured otherwise) in this process.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'client/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function clientIsStale() {
  if (!existsSync(builtIndex)) return true;
  const built = statSync(builtIndex).mtimeMs;
  const sources = [path.join(root, 'client/src'), path.join(root, 'shared/src'), path.join(root, 'client/index.html')];
  return sources.some((source) => existsSync(source) && (statSync(source).isDirectory() ? newestMtime(source) : statSync(source).mtimeMs) > built);
}

if (process.env.SKIP_CLIENT_BUILD !== '1' && clientIsStale()) {
  console.log('Building the web client…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: path.join(root, 'client'), stdio: 'inherit' });
}

register();
await import('../server/src/main.ts');
