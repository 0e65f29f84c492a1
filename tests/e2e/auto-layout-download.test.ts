import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Rect } from '@clipshift/shared';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { cameraRegion, type ClipMediaSpec } from '../fakes/twitch/media.ts';
import { iou } from '../helpers/camera-sources.ts';
import { renderLimitMs } from '../helpers/limits.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, horizontalOverflow, inEachLook, pageSettled, toast as toastOn, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { clipCard, detailsDialog } from './pages/clips.ts';

const USER = { username: 'autolayout', password: 'a long enough password' };
const STREAMER = 'camwatcher';
const TITLE = 'CamWatcher';
/** Clips with a live camera in the top-right corner, no border, as many streams have. */
const MEDIA: ClipMediaSpec = { width: 1280, height: 720, fps: 15, seconds: 3, camera: { anchor: 'top-right', width: 0.22, look: 2 } };
const RUN_TIMEOUT_MS = renderLimitMs(1);

/**
 * Issue 22's promise in the browser: a streamer added without any settings (the dialog's automatic
 * layout) downloads a clip that comes out split with its camera found by itself, and the studio shows
 * the rectangle detection found when the clip was rendered.
 */
describe('the automatic layout from the dashboard to the studio', () => {
  let fake: FakeTwitch;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let truth: Rect;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    fake.addBroadcaster({ login: STREAMER, display_name: TITLE });
    const clip = fake.addClip({ broadcaster: STREAMER, title: 'camera corner clutch', view_count: 500 });
    await fake.setClipMedia(clip.id, MEDIA);
    truth = cameraRegion(MEDIA)!;
    server = await startE2eApp({ ...fake.env }, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  const toast = (text: string) => toastOn(page, text);

  it('adds a streamer without settings, downloads a clip, and it comes out split at its camera', { timeout: RUN_TIMEOUT_MS + 120_000 }, async () => {
    await register(page, USER);
    await page.goto('/app/streamers');
    await heading(page, 'Streamers').waitFor();
    await page.getByRole('button', { name: /Add Streamer/ }).first().click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('radio', { name: /^Automatic/ }).isChecked()).toBe(true);
    await dialog.getByLabel('Streamer name').fill(STREAMER);
    await dialog.getByLabel('Clip limit').fill('1');
    await dialog.getByRole('button', { name: 'Add Streamer' }).click();
    await toast('Streamer added successfully').waitFor();

    await page.goto('/app');
    await page.getByRole('button', { name: `Download clips for ${STREAMER}` }).click();
    await toast(`1 new clip from ${STREAMER}`).waitFor({ timeout: RUN_TIMEOUT_MS });

    const row = await server.app.deps.db.selectFrom('clips').select(['layout', 'detected', 'width', 'height']).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ layout: 'split', width: 1080, height: 1920 });
    expect(row.detected?.facecam).not.toBeNull();
    expect(iou(row.detected!.facecam!, truth)).toBeGreaterThanOrEqual(0.8);
  });

  it('shows the rectangle found at the render in the studio, ready to use or adjust', async () => {
    await page.goto('/app/clips');
    await clipCard(page, 'camera corner clutch').getByRole('button', { name: 'camera corner clutch', exact: true }).click();
    await detailsDialog(page).getByRole('link', { name: 'Open studio' }).click();
    await heading(page, 'Studio').waitFor();
    // The details dialog closes as the studio opens: axe would judge its title while it fades.
    await detailsDialog(page).waitFor({ state: 'detached' });
    await waitForToastsGone(page);
    const found = page.getByTestId('found-camera');
    await found.waitFor();
    await page.getByText('Found when this clip was last rendered').waitFor();
    await page.getByRole('button', { name: 'Use this rectangle' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await inEachLook(page, async ({ width, theme }) => {
      const look = `${width}-${theme}`;
      await page.evaluate(() => window.scrollTo(0, 0));
      // The theme's colours fade from the last look's: axe judges them once the fades have ended.
      await pageSettled(page);
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
      expect(await horizontalOverflow(page), look).toBeLessThanOrEqual(0);
      expect(describeViolations(await axeViolations(page)), look).toEqual([]);
      await screenshot(page, `auto-layout-studio-${look}`);
    });
    expect(browser.pageErrors).toEqual([]);
  });
});
