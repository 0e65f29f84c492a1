import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import { seedClip } from '../helpers/clips.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, makeClipMedia, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { goVia, toast as toastOn, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { clipCard, clipRow, detailsDialog } from './pages/clips.ts';

const USER = { username: 'patience', password: 'a long enough password' };
const CLIP = { clip_id: 'SlowBurn', title: 'Slow burn comeback' };
const STARTED = 'Generating subtitles for clip. This may take several minutes...';
const ALREADY = 'Already generating subtitles for clip';
/** A real transcription and 1080x1920 render after the held one is let go, on a shared machine. */
const SUBTITLE_RUN_TIMEOUT_MS = 120_000;

/**
 * Long work as the server reports it (issue 10, item 2): a subtitle job's stage and percent on the
 * card, the list row and the details, still there after leaving the screen and after a reload; a
 * second click says only that it is already running; a post's progress per account in the details.
 */
describe('long work visible and remembered: subtitle progress and posting progress', () => {
  let openai: FakeOpenAi;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let userId = '';
  let mediaDir = '';
  let clipRowId = '';

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-progress-'));
    openai = await startFakeOpenAi({ scenario: 'speech' });
    server = await startE2eApp({ TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: openai.url }, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });

  afterAll(async () => {
    openai?.release();
    await browser?.close();
    await server?.close();
    await openai?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  const db = () => server.app.deps.db;
  const toast = (text: string) => toastOn(page, text);
  const card = () => clipCard(page, CLIP.title);
  const progressOf = (scope: ReturnType<typeof card>) => scope.getByTestId('render-progress');

  /** Every picture of the card with its progress: 1366 and 390 px wide, light and dark. */
  async function screenshotsOfCard(name: string) {
    await waitForToastsGone(page);
    for (const [width, height] of [[1366, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        await progressOf(card()).waitFor();
        await screenshot(page, `${name}-${width}-${theme}`);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('signs up with one clip in the library', async () => {
    await register(page, USER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
    const media = makeClipMedia(mediaDir, 360, 640);
    const seeded = await seedClip(server.app.deps, userId, { ...CLIP, streamer_name: 'pixelqueen', video: media.video });
    clipRowId = seeded.id;
    await writeFile(path.join(seeded.dir, CLIP_FILES.thumbnail), media.thumbnail);
    await db().updateTable('clips').set({ duration: 2 }).where('id', '=', clipRowId).execute();
    await goVia(page, 'Clips');
    await card().waitFor();
    expect(await progressOf(card()).count()).toBe(0);
  });

  it('shows the running job on the card, and still after leaving the screen and after a reload', async () => {
    // The transcription is held at the fake server: the job stays at "Transcribing 0%".
    openai.hold();
    await card().getByRole('button', { name: 'Generate subtitles' }).click();
    await toast(STARTED).waitFor();
    await progressOf(card()).getByText('Transcribing 0%').waitFor();
    expect(await card().getByRole('progressbar', { name: 'Subtitles: Transcribing 0%' }).count()).toBe(1);

    await goVia(page, 'Dashboard');
    await goVia(page, 'Clips');
    await progressOf(card()).getByText('Transcribing 0%').waitFor();
    const button = card().getByRole('button', { name: 'Generating subtitles… 0%' });
    expect(await button.getAttribute('aria-busy')).toBe('true');

    // Asked again: only "already generating", not a second start.
    await waitForToastsGone(page);
    await button.click();
    await toast(ALREADY).waitFor();
    expect(await toast(STARTED).count()).toBe(0);
    expect(openai.pending()).toBe(1);

    await page.reload();
    await progressOf(card()).getByText('Transcribing 0%').waitFor();

    // Further on, as the job would save it (the held transcription writes nothing meanwhile): the bar moves.
    await db().updateTable('subtitle_requests').set({ stage: 'rendering', percent: 37 }).where('clip_row_id', '=', clipRowId).where('status', '=', 'running').execute();
    await progressOf(card()).getByText('Rendering 37%').waitFor();
    await card().getByRole('button', { name: 'Generating subtitles… 37%' }).waitFor();
    expect(await card().getByRole('progressbar').getAttribute('aria-valuenow')).toBe('37');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await screenshotsOfCard('clips-card-progress');
  });

  it('shows the same progress in the list view and the details', async () => {
    await page.getByRole('button', { name: 'List view' }).click();
    const row = clipRow(page, CLIP.title);
    await progressOf(row).getByText('Rendering 37%').waitFor();
    await screenshot(page, 'clips-list-progress');
    await row.getByRole('button', { name: 'Open details' }).click();
    await progressOf(detailsDialog(page)).getByText('Rendering 37%').waitFor();
    await detailsDialog(page).getByRole('button', { name: 'Generating subtitles… 37%' }).waitFor();
    await screenshot(page, 'clips-details-progress');
    await page.keyboard.press('Escape');
    await detailsDialog(page).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Card view' }).click();
  });

  it(
    'ends in the finished state: the Subtitled badge, no progress, the button ready again',
    async () => {
      openai.release();
      await card().getByText('Subtitled', { exact: true }).waitFor({ timeout: SUBTITLE_RUN_TIMEOUT_MS - 30_000 });
      await progressOf(card()).waitFor({ state: 'detached' });
      await card().getByRole('button', { name: 'Generate subtitles' }).waitFor();
      const request = await db().selectFrom('subtitle_requests').select(['status', 'percent']).where('clip_row_id', '=', clipRowId).executeTakeFirstOrThrow();
      expect(request).toEqual({ status: 'done', percent: 100 });
    },
    SUBTITLE_RUN_TIMEOUT_MS,
  );

  it('shows a post per account in the details: queued → uploading 42% → processing → published', async () => {
    // The upload's row as the posting job leaves it on its way (no TikTok here: the job is not queued).
    const upload = await db()
      .insertInto('uploads')
      .values({ user_id: userId, clip_row_id: clipRowId, account_name: '@slowposter', account_open_id: 'open-slow', mode: 'direct', description: 'slow #a #b #c' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const setUpload = (status: 'uploading' | 'processing' | 'published', percent: number) =>
      db().updateTable('uploads').set({ status, percent }).where('id', '=', upload.id).execute();

    await page.getByRole('button', { name: 'Refresh' }).click();
    await card().getByTestId('upload-progress').getByText('Queued').waitFor();
    await card().getByRole('button', { name: CLIP.title, exact: true }).click();
    const entry = detailsDialog(page).getByTestId('posted-to-entry').filter({ hasText: '@slowposter' });
    await entry.getByText('Queued').waitFor();

    await setUpload('uploading', 42);
    await entry.getByText('Uploading 42%').waitFor();
    expect(await entry.getByRole('progressbar', { name: '@slowposter: Uploading 42%' }).getAttribute('aria-valuenow')).toBe('42');
    await screenshot(page, 'clips-details-posting-progress');
    await setUpload('processing', 100);
    await entry.getByText('Processing').waitFor();
    await setUpload('published', 100);
    await entry.getByText('Published').waitFor();
    expect(await entry.getByRole('progressbar').count()).toBe(0);
    await page.keyboard.press('Escape');
    await card().getByTestId('posted-badge').waitFor();
    expect(await card().getByTestId('upload-progress').count()).toBe(0);
  });

  it('had no uncaught page errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
