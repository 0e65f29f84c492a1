import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chatScript, HYPE_LINES, startFakeTwitch, startFakeTwitchChat, type FakeTwitch, type FakeTwitchChat } from '../fakes/twitch/index.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { renderLimitMs } from '../helpers/limits.ts';
import { waitUntil } from '../helpers/wait.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { goVia, horizontalOverflow, pageSettled, toast, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { editStreamerDialog, streamerCard } from './pages/streamers.ts';

const USER = { username: 'livewatcher', password: 'a long enough password' };
/** From the burst to the clip in the inbox: one render, plus the Moments screen's 10 s refresh. */
const CLIP_WAIT_MS = renderLimitMs(1) + 60_000;

/*
 * Issue 23's whole chain in a real browser, on the real worker and its chat watcher: connect
 * Twitch in Settings, turn watching on in the streamer form, the streamer's chat bursts (the fake
 * Twitch chat over a real WebSocket), the moment arrives on the Moments screen with its reasons,
 * and its clip opens in the review inbox.
 */
describe('a live chat moment from Settings to the review inbox', { timeout: 3 * CLIP_WAIT_MS }, () => {
  let fake: FakeTwitch;
  let chat: FakeTwitchChat;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    chat = await startFakeTwitchChat({ channel: 'livechannel' });
    server = await startE2eApp({ ...fake.env, TWITCH_CHAT_URL: chat.url, REGISTRATION_MODE: 'open' }, { worker: { concurrency: 2 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await chat?.close();
    await fake?.close();
  });

  it('connects Twitch, turns watching on, shows the moment with its reasons and opens its clip in review', async () => {
    await register(page, USER);
    const user = await server.app.deps.db.selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow();
    const streamerId = await seedStreamer(server.app.deps, user.id, 'livechannel');
    await server.app.deps.db.updateTable('streamers').set({ auto_publish: true, publish_mode: 'review' }).where('id', '=', streamerId).execute();

    // Settings › Twitch: connect the channel's own account in the popup.
    await page.goto('/app/settings');
    fake.setAuthorizingUser({ login: 'livechannel' });
    const twitch = page.getByRole('region', { name: 'Twitch', exact: true });
    await twitch.getByRole('button', { name: 'Connect Twitch' }).click();
    await toast(page, 'Twitch account connected successfully').waitFor();
    await waitForToastsGone(page);

    // The streamer goes live; watching is turned on in its form.
    fake.setLive('livechannel', true, { startedAt: new Date(chat.streamStartedAt), title: 'Late night ranked' });
    await goVia(page, 'Streamers');
    const card = streamerCard(page, 'livechannel');
    await card.getByRole('button', { name: 'Edit livechannel' }).click();
    const dialog = editStreamerDialog(page);
    await dialog.getByRole('switch', { name: 'Watch live chat for moments' }).click();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByTestId('watching-live').waitFor();

    // Turning watching on asks at once whether the streamer is live; a reader joins the chat.
    await waitUntil(() => chat.joinedNow(), { until: (joined) => joined === 1, message: 'the chat reader joining', timeoutMs: 30_000 });
    chat.load(chatScript({ seed: 7, seconds: 420, baselineRate: 1.5, regulars: 40, bursts: [{ atSeconds: 240, seconds: 12, rate: 25, chatters: 90, lines: HYPE_LINES }] }));
    await chat.playAll();

    await goVia(page, 'Moments');
    const moment = page.getByRole('list', { name: 'Moments' }).getByTestId('moment').first();
    await moment.waitFor({ timeout: 30_000 });
    expect(await moment.textContent()).toMatch(/Chat \d+(\.\d)?× its usual pace \(\d+ messages in 10 s from \d+ chatters\)/);
    // Once its clip waits in the inbox, the moment links there.
    const review = moment.getByRole('link', { name: 'Review clip' });
    await review.waitFor({ timeout: CLIP_WAIT_MS });
    await pageSettled(page);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'moments-live-390-light');
    expect(describeViolations(await axeViolations(page)), 'the moments screen with a live moment').toEqual([]);

    await review.click();
    await page.waitForURL((url) => url.pathname === '/app/review');
    const clipId = (await server.app.deps.db.selectFrom('moments').select('clip_id').executeTakeFirstOrThrow()).clip_id!;
    const inbox = page.locator(`[data-testid="review-clip"][data-clip-id="${clipId}"]`);
    await inbox.waitFor();
    expect(await inbox.getByTestId('clip-moment').getByRole('heading').textContent()).toMatch(/^Chat moment · \d+%$/);
    await page.setViewportSize({ width: 1366, height: 900 });
  });
});
