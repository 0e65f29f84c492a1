// `npm run dev`: the API (restarted on change by tsx watch) and Vite's dev server with hot reload.
// Open http://localhost:5173; Vite proxies /api to the API on PORT (default 3000).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children = [
  spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'server/src/app/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { NODE_ENV: 'development', ...process.env },
  }),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], { cwd: path.join(root, 'client'), stdio: 'inherit' }),
];

function stopAll(signal) {
  for (const child of children) if (child.exitCode === null) child.kill(signal);
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
for (const child of children) child.on('exit', () => stopAll('SIGTERM'));
