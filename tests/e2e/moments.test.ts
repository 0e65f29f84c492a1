import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CONNECT_TWITCH_FOR_MOMENTS, type MomentStatus } from '@clipshift/shared';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, makeClipMedia, screenshot, screenshotViewport, type ClipMedia, type E2eApp, type E2eBrowser, startE2eApp } from './harness.ts';
import { chooseOption, goVia, heading, horizontalOverflow, inEachLook, pageSettled, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { editStreamerDialog, streamerCard } from './pages/streamers.ts';

const USER = { username: 'momentwatcher', password: 'a long enough password' };
const LIBRARY_CLIP = { id: 'MomentClipLibrary', title: 'The whole chat lost it' };
const REVIEW_CLIP = { id: 'MomentClipReview', title: 'Chat spammed KEKW for a minute' };
const PACE = 'Chat 6.2× its usual pace (412 messages in 10 s from 240 chatters)';
const EMOTES = 'Emote burst: KEKW ×87';
const LAUGHS = 'Laughter everywhere: 64 messages of LUL, KEKW or “haha” in 10 s';
const SKIPPED = "Below this streamer's threshold (41% < 60%)";
const FAILED = 'Twitch refused the clip: the broadcaster has turned clipping off';

describe('moments: the live chat moments screen, the streamer settings, and the clips made of moments', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let media: ClipMedia;
  let userId = '';
  const streamerIds: Record<string, string> = {};
  let minutesAgo = 60;

  const db = () => server.app.deps.db;
  const momentList = () => page.getByRole('list', { name: 'Moments' });
  const moments = () => momentList().getByTestId('moment');
  const momentOf = (reason: string) => moments().filter({ hasText: reason });

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-moments-'));
    media = makeClipMedia(mediaDir, 360, 640);
    server = await startE2eApp();
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  /** A moment as a chat reader saves it; each one seeded is newer than the one before. */
  async function seedMoment(streamer: string, moment: { offset: number; score: number; reasons: string[]; status: MomentStatus; error?: string; clipId?: string }) {
    minutesAgo -= 5;
    await db()
      .insertInto('moments')
      .values({
        user_id: userId,
        streamer_id: streamerIds[streamer]!,
        streamer_name: streamer,
        broadcaster_id: `b-${streamer}`,
        stream_id: `s-${streamer}`,
        stream_started_at: new Date(Date.now() - 4 * 3_600_000),
        stream_offset: moment.offset,
        detected_at: new Date(Date.now() - minutesAgo * 60_000),
        score: moment.score,
        reasons: JSON.stringify(moment.reasons),
        status: moment.status,
        error: moment.error ?? null,
        clip_id: moment.clipId ?? null,
      })
      .execute();
  }

  /** A library clip made of a moment (its score and reasons); `pending`: it waits in the review inbox. */
  async function momentClip(clip: { id: string; title: string }, pending: boolean) {
    const { id, dir } = await seedClip(server.app.deps, userId, { clip_id: clip.id, title: clip.title, streamer_name: 'pixelqueen', video: media.video });
    await writeFile(path.join(dir, CLIP_FILES.thumbnail), media.thumbnail);
    await db()
      .updateTable('clips')
      .set({
        streamer_id: streamerIds.pixelqueen!,
        duration: 2,
        review_status: pending ? 'pending' : null,
        moment: JSON.stringify({ score: 0.82, reasons: [PACE, EMOTES, LAUGHS] }),
      })
      .where('id', '=', id)
      .execute();
  }

  it('lists the moments newest first with their score, reasons and outcome, and asks to connect Twitch once', async () => {
    await register(page, USER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
    streamerIds.pixelqueen = await seedStreamer(server.app.deps, userId, 'pixelqueen', 'PixelQueen');
    streamerIds.shroud = await seedStreamer(server.app.deps, userId, 'shroud');
    await momentClip(LIBRARY_CLIP, false);
    await momentClip(REVIEW_CLIP, true);
    await seedMoment('pixelqueen', { offset: 3735, score: 0.82, reasons: [PACE, EMOTES], status: 'clipped', clipId: LIBRARY_CLIP.id });
    await seedMoment('shroud', { offset: 725, score: 0.41, reasons: ['Chat 2.1× its usual pace'], status: 'skipped', error: SKIPPED });
    await seedMoment('shroud', { offset: 1500, score: 0.9, reasons: [EMOTES], status: 'failed', error: FAILED });
    await seedMoment('pixelqueen', { offset: 4000, score: 0.77, reasons: [LAUGHS, PACE, EMOTES, 'Many first-time chatters: 31 in 10 s', 'Clip command typed 12 times'], status: 'clipped', clipId: REVIEW_CLIP.id });
    await seedMoment('pixelqueen', { offset: 5000, score: 0.68, reasons: ['Chat 3.4× its usual pace (120 messages in 10 s)'], status: 'found', error: CONNECT_TWITCH_FOR_MOMENTS });

    await page.goto('/app');
    await heading(page, 'Dashboard').waitFor();
    // The dashboard's card leads to the screen once there are moments.
    const latest = page.getByRole('region', { name: 'Latest moments' });
    await latest.getByRole('list', { name: 'Latest moments' }).getByRole('listitem').first().waitFor();
    expect(await latest.getByRole('listitem').count()).toBe(3);
    await pageSettled(page);
    await waitForToastsGone(page);
    await latest.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'moments-dashboard-1366-light');
    expect(describeViolations(await axeViolations(page)), 'the dashboard with moments').toEqual([]);
    // The eight signed-in links fold into the menu until they fit one row: nothing spills sideways.
    for (const width of [768, 1024, 1279, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const header = await page.evaluate(() => {
        const row = document.querySelector('header > div');
        return row ? row.scrollWidth - row.clientWidth : Number.NaN;
      });
      expect(header, `the top bar at ${width} px`).toBeLessThanOrEqual(0);
      expect(await horizontalOverflow(page), `${width} px`).toBeLessThanOrEqual(0);
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible(), `${width} px`).toBe(width >= 1280);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await goVia(page, 'Moments');
    await moments().first().waitFor();
    await pageSettled(page);

    expect(await moments().count()).toBe(5);
    // Newest first: the waiting one, then the clipped one of the review inbox, ... the first clipped one last.
    const scores = await moments().getByTestId('moment-score').allTextContents();
    expect(scores).toEqual(['Score 68%', 'Score 77%', 'Score 90%', 'Score 41%', 'Score 82%']);
    expect(await moments().getByTestId('moment-status').allTextContents()).toEqual(['Found', 'Clipped', 'Failed', 'Skipped', 'Clipped']);

    const first = momentOf(PACE).filter({ hasText: '82%' });
    expect(await first.getByRole('heading', { name: 'pixelqueen' }).count()).toBe(1);
    expect(await first.getByTestId('moment-offset').textContent()).toBe('at 1:02:15 into the stream');
    expect(await first.locator('time').textContent()).toMatch(/^\d+ min ago$/);
    expect(await first.getByTestId('moment-reasons').getByRole('listitem').allTextContents()).toEqual([PACE, EMOTES]);
    expect(await momentOf(SKIPPED).getByTestId('moment-offset').textContent()).toBe('at 12:05 into the stream');
    expect(await momentOf(FAILED).getByTestId('moment-note').textContent()).toBe(FAILED);

    // The one waiting for a Twitch account: one banner, leading to the Twitch settings.
    const banners = page.getByTestId('connect-twitch-banner');
    expect(await banners.count()).toBe(1);
    expect(await banners.getByText(CONNECT_TWITCH_FOR_MOMENTS).count()).toBe(1);
    expect(await banners.getByRole('link', { name: 'Open Twitch settings' }).getAttribute('href')).toBe('/app/settings#twitch');

    // A long list of reasons folds, and unfolds on request.
    const many = momentOf(LAUGHS).filter({ hasText: '77%' });
    expect(await many.getByTestId('moment-reasons').getByRole('listitem').count()).toBe(4);
    await many.getByRole('button', { name: 'Show all 5 reasons' }).click();
    expect(await many.getByTestId('moment-reasons').getByRole('listitem').count()).toBe(5);
    await many.getByRole('button', { name: 'Show fewer reasons' }).click();

    // A clipped moment links to its clip: the review inbox while it waits there, the library otherwise.
    await expect.poll(() => many.getByTestId('moment-clip-link').textContent()).toBe('Review clip');
    expect(await many.getByTestId('moment-clip-link').getAttribute('href')).toBe(`/app/review?clip=${REVIEW_CLIP.id}`);
    expect(await first.getByTestId('moment-clip-link').getAttribute('href')).toBe(`/app/clips?clip=${LIBRARY_CLIP.id}`);
    expect(await momentOf(FAILED).getByTestId('moment-clip-link').count()).toBe(0);

    await pageSettled(page);
    await waitForToastsGone(page);
    await inEachLook(
      page,
      async ({ width, theme }) => {
        expect(await horizontalOverflow(page), `${width} ${theme}`).toBeLessThanOrEqual(0);
        await screenshot(page, `moments-${width}-${theme}`);
        expect(describeViolations(await axeViolations(page)), `the moments at ${width} ${theme}`).toEqual([]);
      },
      { widest: true },
    );
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('filters by streamer, and shows a moment that arrives while the screen is open', async () => {
    await chooseOption(page, page, 'Filter by streamer', 'shroud');
    await page.waitForURL((url) => url.searchParams.get('streamer') === 'shroud');
    await expect.poll(() => moments().getByTestId('moment-status').allTextContents()).toEqual(['Failed', 'Skipped']);
    expect(await page.getByTestId('connect-twitch-banner').count()).toBe(0);

    // The screen asks again by itself: a moment the reader saves now shows without a reload.
    await seedMoment('shroud', { offset: 2000, score: 0.95, reasons: ['Chat 9× its usual pace'], status: 'found' });
    await momentOf('Chat 9× its usual pace').waitFor();
    expect(await momentOf('Chat 9× its usual pace').getByTestId('moment-note').textContent()).toBe('Making its clip…');

    await chooseOption(page, page, 'Filter by streamer', 'All Streamers');
    await expect.poll(() => moments().count()).toBe(6);
  });

  it('opens a clipped moment’s clip in the library, with the moment’s score and reasons', async () => {
    await momentOf(PACE).filter({ hasText: '82%' }).getByRole('link', { name: 'Open clip' }).click();
    const details = page.getByRole('dialog', { name: LIBRARY_CLIP.title });
    await details.waitFor();
    await page.waitForURL((url) => url.pathname === '/app/clips' && !url.searchParams.has('clip'));
    const moment = details.getByTestId('clip-moment');
    expect(await moment.getByRole('heading').textContent()).toBe('Chat moment · 82%');
    expect(await moment.getByRole('listitem').allTextContents()).toEqual([PACE, EMOTES]);
    await moment.getByRole('button', { name: 'Show all 3 reasons' }).click();
    expect(await moment.getByRole('listitem').allTextContents()).toEqual([PACE, EMOTES, LAUGHS]);
    await pageSettled(page);
    await page.setViewportSize({ width: 390, height: 844 });
    // The dialog scrolls inside itself: a picture of the window, at the moment.
    await moment.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'moment-clip-details-390-light');
    expect(describeViolations(await axeViolations(page)), 'the clip details with a moment').toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
  });

  it('opens a clip waiting for review at its card, which shows the moment', async () => {
    await goVia(page, 'Moments');
    await moments().first().waitFor();
    await momentOf(LAUGHS).filter({ hasText: '77%' }).getByRole('link', { name: 'Review clip' }).click();
    await page.waitForURL((url) => url.pathname === '/app/review');
    const card = page.locator(`[data-testid="review-clip"][data-clip-id="${REVIEW_CLIP.id}"]`);
    await card.waitFor();
    expect(await card.getAttribute('data-linked')).toBe('true');
    const moment = card.getByTestId('clip-moment');
    expect(await moment.getByRole('heading').textContent()).toBe('Chat moment · 82%');
    expect(await moment.getByRole('listitem').count()).toBe(2);
    // The clip of the library is not in the inbox and has no card there.
    expect(await page.locator(`[data-clip-id="${LIBRARY_CLIP.id}"]`).count()).toBe(0);
    await pageSettled(page);
    await waitForToastsGone(page);
    // The link scrolled the page to the card; the full-page pictures start from the top.
    await page.evaluate(() => window.scrollTo({ top: 0 }));
    await screenshot(page, 'moment-review-card-1366-light');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'moment-review-card-390-light');
    expect(describeViolations(await axeViolations(page)), 'the review card with a moment').toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('turns watching on with a threshold in the streamer form, and the card says so', async () => {
    await goVia(page, 'Streamers');
    const card = streamerCard(page, 'PixelQueen');
    await card.waitFor();
    expect(await card.getByTestId('watching-live').count()).toBe(0);
    await card.getByRole('button', { name: 'Edit pixelqueen' }).click();
    const dialog = editStreamerDialog(page);
    await dialog.waitFor();
    const watch = dialog.getByRole('switch', { name: 'Watch live chat for moments' });
    const threshold = dialog.getByRole('slider', { name: /Clip moments scoring at least/ });
    expect(await watch.getAttribute('aria-checked')).toBe('false');
    expect(await threshold.isDisabled()).toBe(true);
    expect(await threshold.inputValue()).toBe('60');
    await watch.click();
    expect(await threshold.isDisabled()).toBe(false);
    await threshold.fill('75');
    await dialog.getByText('Clip moments scoring at least 75%').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await threshold.scrollIntoViewIfNeeded();
    // Nothing of the form spills sideways out of the dialog on a phone.
    expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    await screenshotViewport(page, 'moment-streamer-form-390-light');
    expect(describeViolations(await axeViolations(page)), 'the streamer form with moments').toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const saved = await page.evaluate(async () => {
      const response = await fetch('/api/streamers');
      return (await response.json()) as { name: string; watch_live: boolean; moment_threshold: number }[];
    });
    const pixel = saved.find((streamer) => streamer.name === 'pixelqueen');
    expect(pixel?.watch_live).toBe(true);
    expect(pixel?.moment_threshold).toBeCloseTo(0.75, 5);
    expect(saved.find((streamer) => streamer.name === 'shroud')?.watch_live).toBe(false);
    await card.getByTestId('watching-live').waitFor();
    expect(await card.getByTestId('watching-live').textContent()).toBe('Watching live chat');
    await pageSettled(page);
    await waitForToastsGone(page);
    await screenshot(page, 'moment-streamer-card-1366-light');

    // Opened again, the form shows what was saved.
    await card.getByRole('button', { name: 'Edit pixelqueen' }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole('switch', { name: 'Watch live chat for moments' }).getAttribute('aria-checked')).toBe('true');
    expect(await dialog.getByRole('slider', { name: /Clip moments scoring at least/ }).inputValue()).toBe('75');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('explains how to turn watching on while there are no moments', async () => {
    await db().deleteFrom('moments').where('user_id', '=', userId).execute();
    await goVia(page, 'Moments');
    await page.getByText('No moments yet').waitFor();
    expect(await page.getByText('Turn on “Watch live chat for moments” in a streamer’s settings', { exact: false }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Open Streamers' }).getAttribute('href')).toBe('/app/streamers');
    await pageSettled(page);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'moments-empty-390-light');
    expect(describeViolations(await axeViolations(page)), 'the empty moments screen').toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(browser.pageErrors).toEqual([]);
  });
});
