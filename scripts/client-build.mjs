// Builds the browser client when its sources are newer than the last build. `npm start`, the demo
// and the browser tests use this one check and this one build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(root, 'client');
const builtIndex = path.join(clientDir, 'dist/index.html');
/** What the build depends on: when any of it is newer than the build, the build is stale. */
const BUILD_INPUTS = ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'client/compress-assets.ts', 'shared/src'];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function clientIsStale() {
  if (!existsSync(builtIndex)) return true;
  const built = statSync(builtIndex).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(path.join(root, input)) > built);
}

/**
 * Always a production build: Vite takes NODE_ENV from the environment, and under a test runner
 * (NODE_ENV=test) it would ship React's development build, several times slower in the browser.
 */
export function buildClient(options = {}) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', ...(options.quiet ? ['--logLevel', 'warn'] : [])], {
    cwd: clientDir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

export function ensureClientBuilt() {
  if (process.env.SKIP_CLIENT_BUILD === '1' || !clientIsStale()) return;
  console.log('Building the web client…');
  buildClient();
}
