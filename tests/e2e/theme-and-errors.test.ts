import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { launchBrowser, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading } from './pages/app.ts';
import { register } from './pages/auth.ts';

const USER = { username: 'dana', password: 'a long enough password' };
const LAPTOP = { width: 1366, height: 900 };

/** tRPC requests (batched or not) that include `procedure`. */
function callsTo(procedure: string): (url: URL) => boolean {
  return (url) => url.pathname.startsWith('/api/trpc/') && url.pathname.split('/').pop()!.split(',').includes(procedure);
}

function isDark(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.classList.contains('dark'));
}

describe('the theme toggle and how failures are worded', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;

  beforeAll(async () => {
    server = await startE2eApp();
    browser = await launchBrowser(server.baseUrl, LAPTOP);
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('follows the system, remembers a choice, and applies it before the app runs', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await heading(page, /Turn Twitch clips into/).waitFor();
    expect(await isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => isDark(page)).toBe(false);

    await page.getByRole('button', { name: 'Theme: System' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    expect(await isDark(page)).toBe(true);
    expect(await page.evaluate(() => window.localStorage.getItem('clipshift-theme'))).toBe('dark');
    await page.getByRole('button', { name: 'Theme: Dark' }).waitFor();

    // With the app's scripts refused, only /theme-init.js runs: the first paint is already dark.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    expect(await isDark(page)).toBe(true);
    await page.unroute('**/assets/*.js');

    await page.goto('/');
    await page.getByRole('button', { name: 'Theme: Dark' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
    expect(await page.evaluate(() => window.localStorage.getItem('clipshift-theme'))).toBeNull();
    expect(await isDark(page)).toBe(false);
    expect(browser.pageErrors).toEqual([]);
  });

  it('fetches the theme menu only when it is wanted, and opens it from the keyboard', async () => {
    const scripts: string[] = [];
    const onRequest = (request: Request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    };
    page.on('request', onRequest);
    await page.goto('/');
    await heading(page, /Turn Twitch clips into/).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((script) => script.includes('theme-menu'))).toEqual([]);

    await page.getByRole('button', { name: 'Theme: System' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitemradio', { name: 'Light' }).waitFor();
    expect(scripts.filter((script) => script.includes('theme-menu'))).toHaveLength(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Theme: System');
    page.off('request', onRequest);
    expect(browser.pageErrors).toEqual([]);
  });

  it('words a proxy 502 by its status and a failed Recent Logs load as a failure', async () => {
    await register(page, USER);
    await heading(page, 'Dashboard').waitFor();
    await page.route(callsTo('clips.list'), (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad Gateway</body></html>' }));
    await page.goto('/app/clips');
    await page.getByText('Failed to load clips').first().waitFor();
    await page.getByText('HTTP error! status: 502').first().waitFor();
    expect(await page.getByText('The server could not be reached').count()).toBe(0);
    await page.unroute(callsTo('clips.list'));

    await page.route(callsTo('logs.list'), (route) => route.fulfill({ status: 500, contentType: 'text/html', body: 'Internal Server Error' }));
    await page.goto('/app/settings');
    const recent = page.getByRole('region', { name: 'Recent Logs' });
    await recent.getByText('Failed to load logs').waitFor();
    await recent.getByText('HTTP error! status: 500').waitFor();
    expect(await recent.getByText('No Logs Found').count()).toBe(0);
    await page.unroute(callsTo('logs.list'));
    expect(await page.title()).toBe('Settings · Clipshift');
  });
});
