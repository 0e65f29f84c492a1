import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { buildClient, clientIsStale } from '../../scripts/client-build.mjs';
import { createApp } from '../../server/src/app/http-app.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import type { ChromiumResolution } from '../helpers/chromium.ts';
import { waitUntil } from '../helpers/wait.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLIENT_DIR = path.join(ROOT, 'client');
export const CLIENT_DIST = path.join(CLIENT_DIR, 'dist');
// Inside node_modules so it is never committed; shared by every test process of this checkout.
const BUILD_LOCK = path.join(ROOT, 'node_modules/.cache/clipshift-e2e-build.lock');
/** A lock older than this belongs to a build that died; two minutes is far beyond a real build. */
const STALE_LOCK_MS = 2 * 60 * 1000;
const LOCK_POLL_MS = 200;
export const SCREENSHOT_DIR = path.join(ROOT, 'tests/e2e/screenshots');

function tryTakeLock(): boolean {
  try {
    const fd = openSync(BUILD_LOCK, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(BUILD_LOCK).mtimeMs > STALE_LOCK_MS) rmSync(BUILD_LOCK, { force: true });
    } catch {
      // The holder released it between our two looks: the next attempt takes it.
    }
    return false;
  }
}

/**
 * Builds client/dist when missing or older than its sources. Test files start in parallel, so the
 * check and the build happen under a lock file: the first file builds, the others wait and then
 * find the build fresh.
 */
export async function ensureClientBuilt(): Promise<void> {
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  // A stale lock is broken after STALE_LOCK_MS, so waiting twice that long means something is wrong.
  await waitUntil(tryTakeLock, { message: 'the client build lock', timeoutMs: 2 * STALE_LOCK_MS, intervalMs: LOCK_POLL_MS });
  try {
    if (clientIsStale()) buildClient({ quiet: true });
  } finally {
    rmSync(BUILD_LOCK, { force: true });
  }
}

export interface E2eApp {
  baseUrl: string;
  app: TestApp;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * The real Express app with the built client over a fresh database. The server listens first, so
 * PUBLIC_URL can be its own origin: the browser's Origin header then passes the cross-site check.
 */
export interface E2eAppOptions {
  /**
   * Runs the job worker (graphile-worker) beside the server with this concurrency, as a deployment
   * does; downloads need it. Stopped by close() before the database goes away.
   */
  worker?: { concurrency: number };
}

/** Loaded only when asked for, so test files without downloads never load the job code. */
async function startJobWorker(app: TestApp, concurrency: number): Promise<() => Promise<void>> {
  const { startWorker } = await import('../../server/src/app/jobs.ts');
  const runner = await startWorker(app.deps, app.database.pool, concurrency);
  app.deps.workerRunning = () => true;
  return () => runner.stop();
}

export async function startE2eApp(env: Record<string, string> = {}, options: E2eAppOptions = {}): Promise<E2eApp> {
  await ensureClientBuilt();
  const server = createServer();
  const port = await listen(server);
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = await createTestApp({ REGISTRATION_MODE: 'invite', PUBLIC_URL: baseUrl, ...env });
  server.on('request', createApp(app.deps, { clientDist: CLIENT_DIST }));
  let stopWorker: (() => Promise<void>) | null = null;
  try {
    if (options.worker) stopWorker = await startJobWorker(app, options.worker.concurrency);
  } catch (error) {
    server.close();
    await app.close();
    throw error;
  }
  return {
    baseUrl,
    app,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopWorker?.();
      await app.close();
    },
  };
}

export interface E2eBrowser {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions of the pages: a test ends by asserting there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--mute-audio',
  '--headless',
];
/**
 * How long Playwright waits for a state the app exposes (an element, a navigation): a limit that
 * only a broken screen reaches, since a passing test moves on the moment the state is there. A
 * loaded 2-core machine can take many seconds to lay out a heavy screen.
 */
const ACTION_TIMEOUT_MS = 60_000;

/** An error that prints as its one line: the fix it names is all there is to read. */
function oneLineError(line: string): Error {
  const error = new Error(line);
  error.stack = `Error: ${line}`;
  return error;
}

/**
 * The run's Chromium (see resolveChromium) with a profile of its own, so no state leaks between
 * test files or runs.
 */
export async function launchBrowser(
  baseUrl: string,
  viewport = { width: 1280, height: 800 },
  found: ChromiumResolution = inject('chromium'),
): Promise<E2eBrowser> {
  if ('problem' in found) throw oneLineError(found.problem);
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: found.executablePath,
    ...(found.env ? { env: { ...process.env, ...found.env } } : {}),
    args: CHROMIUM_ARGS,
    headless: true,
    viewport,
    baseURL: baseUrl,
    locale: 'en-US',
    timezoneId: 'UTC',
    // The app then stops its spinners and transitions (index.css): a busy 2-core machine paints no
    // frames for them, and Playwright's stability checks do not wait for elements to stop moving.
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const pageErrors: string[] = [];
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    context,
    page,
    pageErrors,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot under tests/e2e/screenshots/ (git-ignored) for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
    // Toasts are fixed to the viewport and would float over the middle of a full-page image.
    style: '[data-sonner-toaster] { display: none !important; }',
  });
}

export function pathnameOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** The visible viewport only, toasts included. */
export async function screenshotViewport(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Animations run as they are (disabling them would fast-forward the toasts' fade to invisible);
  // the picture is taken once entrance transitions such as a toast sliding in have finished.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
  );
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

const FFMPEG = path.join(ROOT, 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg');

export interface ClipMedia {
  video: Buffer;
  thumbnail: Buffer;
}

/**
 * Made once per size and test process: test files share their process (isolate: false), and the
 * bytes only depend on the size.
 */
const madeMedia = new Map<string, ClipMedia>();

/** A real H.264/AAC MP4 (faststart) of `seconds` (2 unless asked; Reels need 3 at least) and a JPEG frame of the given size, made under `dir`. */
export function makeClipMedia(dir: string, width: number, height: number, seconds = 2): ClipMedia {
  const size = `${width}x${height}`;
  const name = seconds === 2 ? size : `${size}-${seconds}s`;
  const made = madeMedia.get(name);
  if (made) return made;
  const video = path.join(dir, `${name}.mp4`);
  const thumbnail = path.join(dir, `${name}.jpg`);
  const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];
  execFileSync(FFMPEG, [
    ...quiet,
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=duration=${seconds}`],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', video],
  ]);
  execFileSync(FFMPEG, [...quiet, '-f', 'lavfi', '-i', `testsrc2=size=${size}`, '-frames:v', '1', '-q:v', '4', thumbnail]);
  const media = { video: readFileSync(video), thumbnail: readFileSync(thumbnail) };
  madeMedia.set(name, media);
  return media;
}
