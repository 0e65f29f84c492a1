// The browser tests' Chromium: CHROMIUM_PATH, then a system Chrome/Chromium, then the Chromium
// that @sparticuz/chromium ships in its npm tarball, else one line naming the fix.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/harness.ts';
import { NO_CHROMIUM, realProbe, resolveChromium, SKIP_SYSTEM_SWITCH, type ChromiumProbe } from '../helpers/chromium.ts';

const NPM_CHROMIUM = { executablePath: '/cache/143/chromium', env: { LD_LIBRARY_PATH: '/cache/143/lib' } };

function probe(executables: string[], overrides: Partial<ChromiumProbe> = {}): ChromiumProbe {
  return {
    env: { PATH: '/usr/local/bin:/usr/bin' },
    platform: 'linux',
    home: '/home/dev',
    isExecutable: (file) => executables.includes(file),
    npmChromium: async () => NPM_CHROMIUM,
    ...overrides,
  };
}

describe('which Chromium the browser tests use', () => {
  it('takes CHROMIUM_PATH first', async () => {
    const found = await resolveChromium(probe(['/opt/mine/chrome', '/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/opt/mine/chrome', PATH: '/usr/bin' } }));
    expect(found).toEqual({ executablePath: '/opt/mine/chrome', source: 'CHROMIUM_PATH' });
  });

  it('names CHROMIUM_PATH when it points at nothing, rather than quietly taking another browser', async () => {
    const found = await resolveChromium(probe(['/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/opt/gone/chrome' } }));
    expect(found).toEqual({ problem: 'CHROMIUM_PATH=/opt/gone/chrome is not an executable file: point it at a Chromium or Chrome binary, or unset it' });
  });

  it('prefers Chromium to Chrome, each looked up on PATH as which would, then at the usual install paths', async () => {
    expect(await resolveChromium(probe(['/usr/local/bin/chromium', '/usr/bin/chromium']))).toEqual({
      executablePath: '/usr/local/bin/chromium',
      source: 'system',
    });
    expect(await resolveChromium(probe(['/usr/local/bin/google-chrome', '/usr/bin/chromium']))).toEqual({
      executablePath: '/usr/bin/chromium',
      source: 'system',
    });
    expect(await resolveChromium(probe(['/opt/google/chrome/chrome'], { env: { PATH: '' } }))).toEqual({
      executablePath: '/opt/google/chrome/chrome',
      source: 'system',
    });
  });

  it('finds Chrome in its macOS app bundle', async () => {
    const bundle = '/home/dev/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(await resolveChromium(probe([bundle], { platform: 'darwin', env: { PATH: '/usr/bin' } }))).toEqual({ executablePath: bundle, source: 'system' });
  });

  it('falls back to the npm Chromium when the machine has no browser, or the system ones are skipped', async () => {
    expect(await resolveChromium(probe([]))).toEqual({ ...NPM_CHROMIUM, source: '@sparticuz/chromium' });
    expect(await resolveChromium(probe(['/usr/bin/chromium'], { env: { [SKIP_SYSTEM_SWITCH]: '1', PATH: '/usr/bin' } }))).toMatchObject({
      source: '@sparticuz/chromium',
    });
  });

  it('gives one line naming the fix when no Chromium can be had', async () => {
    expect(await resolveChromium(probe([], { npmChromium: async () => undefined }))).toEqual({ problem: NO_CHROMIUM });
    const broken = await resolveChromium(
      probe([], {
        npmChromium: async () => {
          throw new Error('ENOSPC: no space left on device\n    at write');
        },
      }),
    );
    expect(broken).toEqual({ problem: `${NO_CHROMIUM} (unpacking @sparticuz/chromium failed: ENOSPC: no space left on device)` });
  });

  it('makes a browser test fail with that line alone', async () => {
    const failure = await launchBrowser('http://127.0.0.1:1', undefined, { problem: NO_CHROMIUM }).catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ message: NO_CHROMIUM, stack: `Error: ${NO_CHROMIUM}` });
  });
});

describe.runIf(process.platform === 'linux' && process.arch === 'x64')('the Chromium from npm', () => {
  let page: Server;
  let baseUrl: string;

  beforeAll(async () => {
    page = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>bare</title><h1><span>Clipshift</span></h1><script>document.title = navigator.userAgent</script>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  });
  afterAll(() => page.close());

  it('unpacks and runs headless under playwright-core with the harness flags', async () => {
    const { CHROMIUM_PATH: _ignored, ...env } = process.env;
    const found = await resolveChromium(realProbe({ ...env, [SKIP_SYSTEM_SWITCH]: '1' }));
    expect(found).toMatchObject({ source: '@sparticuz/chromium' });
    const browser = await launchBrowser(baseUrl, undefined, found);
    try {
      await browser.page.goto('/');
      expect(await browser.page.textContent('h1')).toBe('Clipshift');
      expect(await browser.page.title()).toContain('HeadlessChrome');
      // Text is laid out in a real font (with none, its width is 0): the package's Open Sans where
      // the machine has no fonts.
      const width = await browser.page.evaluate(() => document.querySelector('span')!.getBoundingClientRect().width);
      expect(width).toBeGreaterThan(50);
      expect(browser.pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
