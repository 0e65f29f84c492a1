import { spawn } from 'node:child_process';
import { accessSync, constants, createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';
import { processAlive } from '../../server/src/platform/db/embedded.ts';

/** Where the browser tests' Chromium comes from; serialisable, so global setup can hand it to the test files. */
export type ChromiumResolution =
  | { executablePath: string; source: string; env?: Record<string, string> }
  | { problem: string };

/** The one line a browser test fails with when no Chromium can be had. */
export const NO_CHROMIUM =
  'No Chromium for the browser tests: install one (apt-get install chromium), set CHROMIUM_PATH, ' +
  'or run npm install so that @sparticuz/chromium (Linux x64) is there';

/** Set only to prove the npm fallback on a machine that has a system browser. */
export const SKIP_SYSTEM_SWITCH = 'TEST_CHROMIUM_SKIP_SYSTEM';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Inside node_modules so it is never committed; kept across runs, one folder per package version.
const NPM_CHROMIUM_CACHE = path.join(ROOT, 'node_modules/.cache/clipshift-chromium');
const NPM_PACKAGE = '@sparticuz/chromium';

const SYSTEM_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

function systemPaths(platform: NodeJS.Platform, home: string): string[] {
  if (platform === 'darwin') {
    const bundles = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium'];
    return [...bundles.map((bundle) => `/Applications/${bundle}`), ...bundles.map((bundle) => path.join(home, 'Applications', bundle))];
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/snap/bin/chromium',
    '/opt/google/chrome/chrome',
  ];
}

export interface ChromiumProbe {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  isExecutable(file: string): boolean;
  /** The npm Chromium unpacked and ready, or undefined where its package is not installed or not for this machine. */
  npmChromium(): Promise<{ executablePath: string; env: Record<string, string> } | undefined>;
}

/** What `which` would find: the first directory on PATH holding the command. */
function onPath(command: string, probe: ChromiumProbe): string | undefined {
  for (const dir of (probe.env.PATH ?? '').split(path.delimiter)) {
    if (dir && probe.isExecutable(path.join(dir, command))) return path.join(dir, command);
  }
  return undefined;
}

function findSystemChromium(probe: ChromiumProbe): string | undefined {
  for (const command of SYSTEM_COMMANDS) {
    const found = onPath(command, probe);
    if (found) return found;
  }
  return systemPaths(probe.platform, probe.home).find((candidate) => probe.isExecutable(candidate));
}

/**
 * Finds a Chromium for the browser tests: CHROMIUM_PATH when set, else a system Chrome or
 * Chromium, else the Chromium that @sparticuz/chromium ships inside its npm tarball, else the one
 * line that says how to get one.
 */
export async function resolveChromium(probe: ChromiumProbe = realProbe()): Promise<ChromiumResolution> {
  const given = probe.env.CHROMIUM_PATH;
  if (given) {
    if (probe.isExecutable(given)) return { executablePath: given, source: 'CHROMIUM_PATH' };
    return { problem: `CHROMIUM_PATH=${given} is not an executable file: point it at a Chromium or Chrome binary, or unset it` };
  }
  if (!probe.env[SKIP_SYSTEM_SWITCH]) {
    const system = findSystemChromium(probe);
    if (system) return { executablePath: system, source: 'system' };
  }
  try {
    const fromNpm = await probe.npmChromium();
    if (fromNpm) return { ...fromNpm, source: NPM_PACKAGE };
  } catch (error) {
    return { problem: `${NO_CHROMIUM} (unpacking ${NPM_PACKAGE} failed: ${(error as Error).message.split('\n')[0]})` };
  }
  return { problem: NO_CHROMIUM };
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function realProbe(env: NodeJS.ProcessEnv = process.env): ChromiumProbe {
  return { env, platform: process.platform, home: os.homedir(), isExecutable, npmChromium: () => unpackNpmChromium(NPM_CHROMIUM_CACHE) };
}

/** The package's folder (its bin/ holds the archives): up from its entry, which the package exports alone. */
function npmPackage(): { dir: string; version: string } | undefined {
  let dir: string;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(NPM_PACKAGE));
  } catch {
    return undefined;
  }
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name === NPM_PACKAGE && version) return { dir, version };
  }
  return undefined;
}

async function untarBrotli(archive: string, into: string): Promise<void> {
  // Ownership from the archive would be kept when root unpacks it; the files belong to us.
  const tar = spawn('tar', ['-x', '--no-same-owner', '-C', into], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  tar.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve, reject) => {
    tar.once('error', reject);
    tar.once('close', resolve);
  });
  // tar closes its input once it reads the end-of-archive blocks, before the zero padding after
  // them: the pipe breaking then is no error, tar's exit status is what tells.
  const fed = await pipeline(createReadStream(archive), createBrotliDecompress(), tar.stdin).then(
    () => undefined,
    (error: unknown) => error,
  );
  const code = await exited;
  if (code !== 0) throw new Error(`tar -x ${path.basename(archive)} failed (${code}): ${stderr.trim() || String(fed)}`);
}

/** Fonts of the system when it has a fontconfig setup, and always the Open Sans the package ships. */
function fontsConfig(dir: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${path.join(dir, 'fonts')}</dir>
  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>
</fontconfig>
`;
}

/** Half-unpacked browsers (200 MB each) of runs that were interrupted. */
async function removeAbandonedUnpacks(cacheRoot: string): Promise<void> {
  for (const entry of readdirSync(cacheRoot)) {
    const owner = /\.partial-(\d+)$/.exec(entry)?.[1];
    if (owner && (Number(owner) === process.pid || !processAlive(Number(owner)))) await rm(path.join(cacheRoot, entry), { recursive: true, force: true });
  }
}

/**
 * Unpacks the package's brotli-compressed headless Chromium with the libraries it needs (NSS and
 * expat, which a bare machine lacks), its fonts and SwiftShader into a cache folder of its own
 * (not the package's shared /tmp/chromium). It is unpacked beside the target and renamed into
 * place, so an interrupted unpack or a second run unpacking at once never leaves half a browser.
 */
export async function unpackNpmChromium(cacheRoot: string): Promise<{ executablePath: string; env: Record<string, string> } | undefined> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const found = npmPackage();
  if (!found) return undefined;
  const target = path.join(cacheRoot, found.version);
  if (!existsSync(target)) {
    const bin = path.join(found.dir, 'bin');
    const partial = `${target}.partial-${process.pid}`;
    await mkdir(cacheRoot, { recursive: true });
    await removeAbandonedUnpacks(cacheRoot);
    await mkdir(partial);
    try {
      await pipeline(createReadStream(path.join(bin, 'chromium.br')), createBrotliDecompress(), createWriteStream(path.join(partial, 'chromium'), { mode: 0o755 }));
      for (const archive of ['al2023.tar.br', 'fonts.tar.br', 'swiftshader.tar.br']) await untarBrotli(path.join(bin, archive), partial);
      await writeFile(path.join(partial, 'fonts.conf'), fontsConfig(target));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      // Another run unpacked the same version first: use theirs.
      if (!existsSync(target)) throw error;
    }
  }
  return {
    executablePath: path.join(target, 'chromium'),
    env: {
      LD_LIBRARY_PATH: [path.join(target, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: path.join(target, 'fonts.conf'),
    },
  };
}
