// `npm run bench:assets`: the bytes a first visit transfers. Builds the client, starts the real app
// (precompressed assets, server/src/http/static-assets.ts) and loads / (signed out) and /app
// (signed in, an empty library) in a fresh Chromium profile each, summing what the network
// carried for the HTML, scripts, styles and fonts; API answers are listed apart. Writes
// docs/benchmarks.md ("Client assets").
// Chromium: CHROMIUM_PATH, else /usr/bin/chromium. Database: as bench/api.ts.
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Response } from 'playwright-core';
import { createApp } from '../server/src/app/http-app.ts';
import { createSession, SESSION_COOKIE } from '../server/src/domains/auth/sessions.ts';
import type { AppDeps } from '../server/src/domains/deps.ts';
import { createDatabase } from '../server/src/platform/db/database.ts';
import { migrate } from '../server/src/platform/db/migrate.ts';
import { loadEnv } from '../server/src/platform/env.ts';
import { createStorage } from '../server/src/platform/storage/index.ts';
import { createLogger } from '../server/src/platform/logger.ts';
import { resolveMediaBinaries } from '../server/src/engines/media/index.ts';
import { databaseDescription, freshDatabase, serverUrl, withDatabase } from './lib/database.ts';
import { machineDescription, writeSection } from './lib/report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLIENT_DIR = path.join(ROOT, 'client');
const CLIENT_DIST = path.join(CLIENT_DIR, 'dist');
const GOAL_APP_KB = 200;
const logger = createLogger('silent');

type Kind = 'html' | 'script' | 'style' | 'font' | 'api' | 'other';
const COUNTED: readonly Kind[] = ['html', 'script', 'style', 'font'];

interface Transfer {
  url: string;
  kind: Kind;
  /** Bytes on the wire: headers plus the (possibly compressed) body. */
  transferred: number;
  /** The body once decoded. */
  decoded: number;
  encoding: string;
}

function kindOf(response: Response): Kind {
  const url = new URL(response.url());
  if (url.pathname.startsWith('/api/')) return 'api';
  const type = response.headers()['content-type'] ?? '';
  if (type.startsWith('text/html')) return 'html';
  if (type.includes('javascript')) return 'script';
  if (type.startsWith('text/css')) return 'style';
  if (type.startsWith('font/') || /\.(woff2?|ttf|otf)$/.test(url.pathname)) return 'font';
  return 'other';
}

async function measure(response: Response): Promise<Transfer> {
  const sizes = await response.request().sizes();
  const body = await response.body().catch(() => Buffer.alloc(0));
  return {
    url: new URL(response.url()).pathname,
    kind: kindOf(response),
    transferred: sizes.responseHeadersSize + sizes.responseBodySize,
    decoded: body.length,
    encoding: response.headers()['content-encoding'] ?? 'identity',
  };
}

/** Loads `pathname` in a fresh profile and waits until the network is quiet. */
async function firstLoad(browser: Browser, baseUrl: string, pathname: string, cookie?: string): Promise<Transfer[]> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 900 } });
  if (cookie) await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: baseUrl }]);
  const page = await context.newPage();
  const pending: Promise<Transfer>[] = [];
  page.on('response', (response) => pending.push(measure(response)));
  await page.goto(pathname, { waitUntil: 'networkidle' });
  const transfers = await Promise.all(pending);
  await context.close();
  return transfers;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function total(transfers: readonly Transfer[], kinds: readonly Kind[], field: 'transferred' | 'decoded'): number {
  return transfers.filter((t) => kinds.includes(t.kind)).reduce((sum, t) => sum + t[field], 0);
}

function table(transfers: readonly Transfer[]): string {
  const rows = [...transfers].sort((a, b) => b.transferred - a.transferred);
  return [
    '| file | kind | encoding | transferred | decoded |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((t) => `| ${t.url} | ${t.kind} | ${t.encoding} | ${kb(t.transferred)} | ${kb(t.decoded)} |`),
  ].join('\n');
}

function summary(name: string, transfers: readonly Transfer[]): string {
  return `| ${name} | ${transfers.filter((t) => COUNTED.includes(t.kind)).length} | ${kb(total(transfers, COUNTED, 'transferred'))} | ${kb(total(transfers, COUNTED, 'decoded'))} | ${kb(total(transfers, ['api'], 'transferred'))} |`;
}

async function startApp(): Promise<{ baseUrl: string; token: string; stop: () => Promise<void> }> {
  const server = await serverUrl(logger);
  const url = await freshDatabase(withDatabase(server.url, 'postgres'), 'clipshift_bench_assets');
  const database = createDatabase(url, 5);
  await migrate(database.pool);
  const env = loadEnv({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: path.resolve(import.meta.dirname, 'out/assets-data'), DATABASE_URL: url, PUBLIC_URL: 'http://127.0.0.1' });
  const deps: AppDeps = { env, db: database.db, logger, appSecret: 'bench-secret-bench-secret-bench-secret', twitch: null, tiktok: null, youtube: null, instagram: null, facebook: null, media: resolveMediaBinaries(env), transcriber: null, workerRunning: () => false, storage: createStorage(env) };
  const user = await deps.db.insertInto('users').values({ username: 'bench', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
  const session = await createSession(deps.db, user.id);
  const http = createApp(deps, { clientDist: CLIENT_DIST }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => http.once('listening', () => resolve()));
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    token: session.token,
    stop: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await database.close();
      await server.stop();
    },
  };
}

async function main() {
  console.log('Building the client…');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: CLIENT_DIR, stdio: 'inherit' });
  const app = await startApp();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  let landing: Transfer[];
  let dashboard: Transfer[];
  try {
    landing = await firstLoad(browser, app.baseUrl, '/');
    dashboard = await firstLoad(browser, app.baseUrl, '/app', app.token);
  } finally {
    await browser.close();
    await app.stop();
  }
  const appKb = total(dashboard, COUNTED, 'transferred') / 1024;
  console.log(`/: ${kb(total(landing, COUNTED, 'transferred'))}; /app: ${appKb.toFixed(1)} KB (goal < ${GOAL_APP_KB} KB)`);

  const body = [
    'First visit in a fresh Chromium profile (empty cache), window 1366x900, until the network is quiet. The app serves the .br/.gz files the build writes (client/compress-assets.ts) to browsers that accept them; Chromium asks for `gzip, deflate, br, zstd` and gets brotli. Transferred = response headers + body as carried; API answers are counted apart.',
    '',
    '| first load | files (HTML, JS, CSS, fonts) | transferred | decoded | API transferred |',
    '| --- | --- | --- | --- | --- |',
    summary('/ (landing, signed out)', landing),
    summary('/app (dashboard, signed in)', dashboard),
    '',
    `Goal for /app: under ${GOAL_APP_KB} KB transferred — ${appKb < GOAL_APP_KB ? 'met' : 'NOT met'} (${appKb.toFixed(1)} KB).`,
    '',
    '<details><summary>Files of /</summary>',
    '',
    table(landing),
    '',
    '</details>',
    '',
    '<details><summary>Files of /app</summary>',
    '',
    table(dashboard),
    '',
    '</details>',
    '',
    'Machine:',
    await machineDescription([databaseDescription(), `Chromium: ${browser.version()}`]),
    '',
    'Re-run: `npm run bench:assets` (CHROMIUM_PATH picks the browser).',
  ].join('\n');
  await writeSection('Client assets', body);
  console.log('Wrote docs/benchmarks.md (Client assets).');
}

await main();
