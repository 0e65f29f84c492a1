import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTwitchClip } from '../../server/src/domains/twitch/service.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, SCREENSHOT_DIR, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { horizontalOverflow, inEachLook, pageSettled, toast, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';

const USER = { username: 'twitchfan', password: 'a long enough password' };

/*
 * Issue 23's Twitch connection in Settings: connect in the popup through the fake's consent page,
 * the login and scopes shown, Reconnect needed once Twitch refuses the refresh token, reconnect,
 * disconnect; each state looked at in 390 and 1366 px, light and dark.
 */
describe('Settings: the Twitch connection', () => {
  let fake: FakeTwitch;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    server = await startE2eApp(fake.env);
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  const section = (): Locator => page.getByRole('region', { name: 'Twitch', exact: true });

  /** Clicks the button; the fake's consent page sends the popup to /api/twitch/callback, which tells the page and closes. */
  async function connectThroughPopup(button: Locator): Promise<void> {
    const popup = page.waitForEvent('popup');
    await button.click();
    await toast(page, 'Twitch account connected successfully').waitFor();
    await expect.poll(async () => (await popup).isClosed()).toBe(true);
    await waitForToastsGone(page);
  }

  /** The section in each look: nothing spills sideways, no axe violations, a picture of it to look at. */
  async function lookAt(name: string): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await inEachLook(page, async ({ width, theme }) => {
      const look = `${name} ${width} ${theme}`;
      await section().scrollIntoViewIfNeeded();
      await pageSettled(page);
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
      expect(await horizontalOverflow(page), look).toBeLessThanOrEqual(0);
      expect(describeViolations(await axeViolations(page)), look).toEqual([]);
      await section().screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-${theme}.png`), animations: 'disabled' });
    });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('connects a Twitch account through the popup and shows its login and scopes', async () => {
    await register(page, USER);
    await page.goto('/app/settings');
    await section().getByText('No Twitch account connected.').waitFor();
    await lookAt('twitch-settings-none');

    fake.setAuthorizingUser({ login: 'fanstreams' });
    await connectThroughPopup(section().getByRole('button', { name: 'Connect Twitch' }));
    await expect.poll(() => section().getByTestId('twitch-login').textContent()).toBe('fanstreams');
    await expect.poll(() => section().getByTestId('twitch-status').textContent()).toBe('Connected');
    const scopes = section().getByRole('list', { name: 'Granted scopes' }).getByRole('listitem');
    await expect.poll(() => scopes.count()).toBe(3);
    expect(await scopes.allTextContents()).toEqual(['clips:edit', 'editor:manage:clips', 'channel:manage:clips']);
    expect(fake.requestsTo('authorize')).toHaveLength(1);
    await lookAt('twitch-settings-connected');
  });

  it('shows Reconnect needed once Twitch refuses the connection, and reconnects through the popup', async () => {
    const user = await server.app.deps.db.selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow();
    fake.revokeUserGrants('fanstreams');
    fake.setLive('fanstreams', true);
    const channel = fake.addBroadcaster({ login: 'fanstreams' });
    await expect(createTwitchClip(server.app.deps, user.id, { broadcasterId: channel.id, live: true }, { sleep: async () => {} })).rejects.toThrow('Reconnect needed');

    await page.reload();
    await expect.poll(() => section().getByTestId('twitch-status').textContent()).toBe('Reconnect needed');
    await lookAt('twitch-settings-reconnect');

    fake.setAuthorizingUser({ login: 'fanstreams' });
    await connectThroughPopup(section().getByRole('button', { name: 'Reconnect Twitch' }));
    await expect.poll(() => section().getByTestId('twitch-status').textContent()).toBe('Connected');
  });

  it('disconnects after a confirmation', async () => {
    await section().getByRole('button', { name: 'Disconnect' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Disconnect Twitch?' });
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await toast(page, 'Twitch account disconnected').waitFor();
    await section().getByText('No Twitch account connected.').waitFor();
    expect(fake.revoked).toHaveLength(2);
    expect(browser.pageErrors).toEqual([]);
  });
});
