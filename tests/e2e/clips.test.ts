import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_EXPIRED_MESSAGE } from '@clipshift/shared';
import type { Page, Request, Route } from 'playwright-core';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { launchBrowser, makeClipMedia, screenshot, screenshotViewport, startE2eApp, type ClipMedia, type E2eApp, type E2eBrowser } from './harness.ts';
import { bodyOverflow as bodyOverflowOf, chooseOption as chooseOptionOn, goVia, horizontalOverflow, inEachLook, toast as toastOn } from './pages/app.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { register } from './pages/auth.ts';
import { clipCard, clipGrid, clipRow as clipRowOf, clipTable, confirmDialog as confirmDialogOf, detailsDialog as detailsDialogOf, expectCards as expectCardsOn } from './pages/clips.ts';

const USER = { username: 'casey', password: 'a long enough password' };
const PHONE = { width: 390, height: 844 };
/** A real transcription, caption burn-in and 1080x1920 re-render on a shared machine. */
const SUBTITLE_RUN_TIMEOUT_MS = 120_000;

type Media = ClipMedia;

interface ClipSpec {
  clip_id: string;
  title: string;
  streamer: string;
  views: number;
  created: string;
  updated: string;
  format: 'vertical' | 'horizontal';
  descriptions?: { description: string; rank: number }[];
  game?: string;
  transcript?: string;
  subtitled?: boolean;
  /** The rendered video's measured loudness; absent as for clips rendered before it was measured. */
  loudness?: { integrated: number; truePeak: number };
}

const BEST = 'PixelQueen wins the round alone #pixelqueen #ace #valorant #clip';
const SECOND = 'Clutch of the year #gaming #fps #clutch';
const THIRD = 'Overtime ace';
const TRANSCRIPT = 'No way. She actually did it, one versus four in overtime.';

const ACE: ClipSpec = {
  clip_id: 'AceClutchOvertime',
  title: 'Ace clutch in overtime',
  streamer: 'pixelqueen',
  views: 5400,
  created: '2026-03-01T18:00:00Z',
  updated: '2026-03-10T09:00:00Z',
  format: 'vertical',
  // Stored out of order: the modal lists them by rank.
  descriptions: [
    { description: SECOND, rank: 0.75 },
    { description: BEST, rank: 0.92 },
    { description: THIRD, rank: 0.4 },
  ],
  game: 'VALORANT',
  transcript: TRANSCRIPT,
  subtitled: true,
  loudness: { integrated: -14.06, truePeak: -1.24 },
};
const TRIPLE: ClipSpec = {
  clip_id: 'TripleKillRush',
  title: 'Triple kill rush',
  streamer: 'pixelqueen',
  views: 12800,
  created: '2026-02-01T12:00:00Z',
  updated: '2026-03-12T09:00:00Z',
  format: 'horizontal',
};
const LATE: ClipSpec = {
  clip_id: 'LateNightChat',
  title: 'Late night chat',
  streamer: 'nightowl',
  views: 310,
  created: '2026-03-05T23:00:00Z',
  updated: '2026-03-11T09:00:00Z',
  format: 'vertical',
  descriptions: [{ description: 'Chatting with the night crew #justchatting', rank: 0.6 }],
};
const FAIL: ClipSpec = {
  clip_id: 'FunnyFailWall',
  title: 'Funny fail into the wall',
  streamer: 'nightowl',
  views: 870,
  created: '2026-01-10T15:00:00Z',
  updated: '2026-03-09T09:00:00Z',
  format: 'horizontal',
};

/** What the client asked clips.list for (a batched GET may carry other procedures too). */
interface ListCall {
  streamer?: string;
  search?: string;
  page: number;
}

function listCallsOf(request: Request): ListCall[] {
  const url = new URL(request.url());
  if (!url.pathname.startsWith('/api/trpc/')) return [];
  const procedures = decodeURIComponent(url.pathname.slice('/api/trpc/'.length)).split(',');
  const input = JSON.parse(url.searchParams.get('input') ?? '{}') as Record<string, ListCall>;
  return procedures.flatMap((procedure, index) => (procedure === 'clips.list' && input[index] ? [input[index]] : []));
}

describe('the clips screen: browse, filter, sort, details, descriptions, download, delete, subtitles', () => {
  let openai: FakeOpenAi;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let userId = '';
  let mediaDir = '';
  let vertical: Media;
  let horizontal: Media;
  const listCalls: ListCall[] = [];

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-media-'));
    vertical = makeClipMedia(mediaDir, 360, 640);
    horizontal = makeClipMedia(mediaDir, 640, 360);
    // Subtitles run for real: the job worker beside the server, transcribing with a fake
    // OpenAI-compatible server.
    openai = await startFakeOpenAi({ scenario: 'speech' });
    server = await startE2eApp({ TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: openai.url }, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl);
    page = browser.page;
    page.on('request', (request) => listCalls.push(...listCallsOf(request)));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await openai?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  const db = () => server.app.deps.db;
  const toast = (text: string) => toastOn(page, text);
  const grid = () => clipGrid(page);
  const card = (title: string) => clipCard(page, title);
  const table = () => clipTable(page);
  const row = (title: string) => clipRowOf(page, title);
  const detailsDialog = () => detailsDialogOf(page);
  const confirmDialog = () => confirmDialogOf(page);
  const bodyOverflow = () => bodyOverflowOf(page);
  const chooseOption = (comboboxName: string, optionName: string) => chooseOptionOn(page, page, comboboxName, optionName);
  const expectCards = (titles: string[]) => expectCardsOn(page, titles);

  async function addStreamer(name: string, displayName: string | null) {
    await seedStreamer(server.app.deps, userId, name, displayName);
  }

  async function addClip(spec: ClipSpec) {
    const media = spec.format === 'vertical' ? vertical : horizontal;
    const { id, dir } = await seedClip(server.app.deps, userId, {
      clip_id: spec.clip_id,
      title: spec.title,
      streamer_name: spec.streamer,
      view_count: spec.views,
      twitch_created_at: new Date(spec.created),
      descriptions: spec.descriptions,
      video: media.video,
    });
    await writeFile(path.join(dir, CLIP_FILES.thumbnail), media.thumbnail);
    await db()
      .updateTable('clips')
      .set({
        format_type: spec.format,
        updated_at: new Date(spec.updated),
        game_name: spec.game ?? null,
        transcript: spec.transcript ?? null,
        subtitled: spec.subtitled ?? false,
        duration: spec.format === 'vertical' ? 2 : 75,
        loudness_integrated_lufs: spec.loudness?.integrated ?? null,
        loudness_true_peak_dbtp: spec.loudness?.truePeak ?? null,
        output_duration: spec.format === 'vertical' ? 2 : 75,
      })
      .where('id', '=', id)
      .execute();
  }

  async function clipRow(clipId: string) {
    return db().selectFrom('clips').selectAll().where('user_id', '=', userId).where('clip_id', '=', clipId).executeTakeFirst();
  }

  it('signs up and shows the empty state, pointing at the Dashboard', async () => {
    await register(page, USER);
    const user = await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow();
    userId = user.id;

    await goVia(page, 'Clips');
    await page.getByRole('heading', { name: 'No Clips Found' }).waitFor();
    const dashboardLink = page.getByRole('link', { name: 'Go to Dashboard' });
    expect(await dashboardLink.getAttribute('href')).toBe('/app');
    await screenshot(page, 'clips-empty');
  });

  it('shows in Settings › Processing the model the transcription server runs, not one of whisper.cpp\'s', async () => {
    await goVia(page, 'Settings');
    const processing = page.getByRole('region', { name: 'Processing' });
    const model = processing.getByRole('textbox', { name: 'Transcription model' });
    // Nothing saved: the server's default there (TRANSCRIBE_ENGINE=openai, no WHISPER_MODEL).
    await expect.poll(() => model.inputValue()).toBe('whisper-1');
    await processing.getByText('OpenAI-compatible transcription service', { exact: false }).waitFor();
    expect(await processing.getByRole('combobox', { name: 'Transcription model' }).count()).toBe(0);
    expect(await processing.getByTestId('processing-save-state').textContent()).toBe('Defaults');
    // Shown, not stored: this browser still sends nothing, so the account's choice applies.
    expect(await page.evaluate(() => (JSON.parse(localStorage.getItem('app-settings') ?? '{}') as Record<string, unknown>).whisper_model)).toBeUndefined();
    await processing.scrollIntoViewIfNeeded();
    await inEachLook(page, async ({ width, theme }) => {
      expect(await horizontalOverflow(page), `${width} ${theme}`).toBeLessThanOrEqual(0);
      await screenshot(page, `settings-processing-openai-${width}-${theme}`);
      expect(describeViolations(await axeViolations(page)), `${width} ${theme}`).toEqual([]);
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    // Back where the next test starts.
    await goVia(page, 'Clips');
    await page.getByRole('heading', { name: 'No Clips Found' }).waitFor();
  });

  it('refreshes on demand and shows every clip as a card, newest first', async () => {
    await addStreamer('pixelqueen', 'PixelQueen');
    await addStreamer('nightowl', null);
    for (const spec of [ACE, TRIPLE, LATE, FAIL]) await addClip(spec);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await toast('Clips refreshed successfully').waitFor();
    await expectCards([LATE.title, ACE.title, TRIPLE.title, FAIL.title]);
    await page.getByText('Showing 1–4 of 4').waitFor();

    const ace = card(ACE.title);
    await ace.getByText('Vertical', { exact: true }).waitFor();
    await ace.getByText('Subtitled', { exact: true }).waitFor();
    await ace.getByText('pixelqueen').waitFor();
    await ace.getByText('Mar 1, 2026').waitFor();
    await ace.getByText('5.4K views').waitFor();
    await ace.getByText('0:02').waitFor();
    await ace.getByRole('button', { name: 'Post' }).waitFor();
    await ace.getByRole('button', { name: 'Generate subtitles' }).waitFor();
    await ace.getByRole('button', { name: 'Clip options' }).waitFor();
    const triple = card(TRIPLE.title);
    expect(await triple.getByText('Vertical', { exact: true }).count()).toBe(0);
    expect(await triple.getByText('Subtitled', { exact: true }).count()).toBe(0);
    await triple.getByText('1:15').waitFor();

    // The thumbnail box follows the format, and the real JPEGs load (lazily) into it.
    const format = (title: string) => card(title).locator('[data-format]');
    expect(await format(ACE.title).getAttribute('data-format')).toBe('vertical');
    expect(await format(TRIPLE.title).getAttribute('data-format')).toBe('horizontal');
    const aceBox = await format(ACE.title).boundingBox();
    const tripleBox = await format(TRIPLE.title).boundingBox();
    expect(aceBox && aceBox.height / aceBox.width).toBeCloseTo(16 / 9, 1);
    expect(tripleBox && tripleBox.height / tripleBox.width).toBeCloseTo(9 / 16, 1);
    await expect
      .poll(() => format(ACE.title).locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(360);
    expect(await format(ACE.title).locator('img').getAttribute('loading')).toBe('lazy');

    // Four columns at desktop width.
    const tops = await grid().getByRole('listitem').evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top));
    expect(new Set(tops).size).toBe(1);
    await screenshot(page, 'clips-cards');
  });

  it('filters by streamer and searches titles after the 300 ms debounce', async () => {
    await chooseOption('Filter by streamer', 'nightowl');
    await expectCards([LATE.title, FAIL.title]);
    expect(listCalls.at(-1)).toMatchObject({ streamer: 'nightowl', page: 1 });
    // The streamer's Twitch display name titles it in the list.
    await page.getByRole('combobox', { name: 'Filter by streamer' }).click();
    await page.getByRole('option', { name: 'PixelQueen', exact: true }).waitFor();
    await page.getByRole('option', { name: 'All Streamers', exact: true }).click();
    await expectCards([LATE.title, ACE.title, TRIPLE.title, FAIL.title]);

    // The page's clock stands still while the word is typed, however slowly a busy machine types
    // it: what follows depends on the debounce alone, not on the typing speed.
    await page.clock.install();
    await page.reload();
    await expectCards([LATE.title, ACE.title, TRIPLE.title, FAIL.title]);
    await page.clock.pauseAt(Date.now() + 1_000);
    const before = listCalls.length;
    const search = page.getByRole('searchbox', { name: 'Search clips by title' });
    await search.pressSequentially('clutch');
    // Only a timer could send a search, and no timer runs while the clock stands still.
    expect(listCalls.length).toBe(before);
    // 300 ms after the last key: one request for the whole word, none for its beginnings (time then
    // flows again, for the request's own timers).
    await page.clock.runFor(300);
    await page.clock.resume();
    await expectCards([ACE.title]);
    const searches = listCalls.slice(before).map((call) => call.search);
    expect(searches).toEqual(['clutch']);

    await search.fill('no such clip');
    await page.getByRole('heading', { name: 'No Clips Found' }).waitFor();
    await page.getByText('No clip matches this streamer and search.').waitFor();
    await search.fill('');
    await expectCards([LATE.title, ACE.title, TRIPLE.title, FAIL.title]);
  });

  it('sorts on the client by views and by dates', async () => {
    const before = listCalls.length;
    await chooseOption('Sort clips', 'Most viewed');
    await expectCards([TRIPLE.title, ACE.title, FAIL.title, LATE.title]);
    await chooseOption('Sort clips', 'Least viewed');
    await expectCards([LATE.title, FAIL.title, ACE.title, TRIPLE.title]);
    await chooseOption('Sort clips', 'Oldest clip');
    await expectCards([FAIL.title, TRIPLE.title, ACE.title, LATE.title]);
    await chooseOption('Sort clips', 'Recently downloaded');
    await expectCards([TRIPLE.title, LATE.title, ACE.title, FAIL.title]);
    // Sorting never asks the server.
    expect(listCalls.length).toBe(before);
    await page.getByRole('combobox', { name: 'Sort clips' }).click();
    const labels = await page.getByRole('option').allTextContents();
    expect(labels).toEqual(['Default', 'Most viewed', 'Least viewed', 'Newest clip', 'Oldest clip', 'Recently downloaded', 'First downloaded']);
    await page.getByRole('option', { name: 'Default', exact: true }).click();
    await expectCards([LATE.title, ACE.title, TRIPLE.title, FAIL.title]);
  });

  it('opens the details modal: a playing video, facts, ranked suggestions and the transcript', async () => {
    await card(ACE.title).getByRole('button', { name: ACE.title }).click();
    const dialog = detailsDialog();
    await dialog.waitFor();
    await dialog.getByRole('heading', { name: ACE.title }).waitFor();
    expect(await bodyOverflow()).toBe('hidden');

    const video = dialog.locator('video');
    // Tied to the clip's version, so a re-rendered file is never served from the browser's media cache.
    expect(await video.getAttribute('src')).toBe(`/api/clips/${ACE.clip_id}/video?v=${encodeURIComponent(new Date(ACE.updated).toISOString())}`);
    expect(await video.getAttribute('preload')).toBe('metadata');
    expect(await video.evaluate((element: HTMLVideoElement) => element.controls && element.playsInline)).toBe(true);
    // Vertical clips are shown tall.
    const box = await video.boundingBox();
    expect(box && box.height > box.width * 1.5).toBe(true);
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(2);
    // Playing: the clock moves (whatever share of the clip a busy machine has played by now).
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0)).toBe(true);

    await dialog.getByText('VALORANT').first().waitFor();
    await dialog.getByText('5,400 views').waitFor();
    await dialog.getByText('0:02').waitFor();
    await dialog.getByText('Subtitled', { exact: true }).waitFor();
    // The rendered video's loudness, in plain words.
    await dialog.getByText('Loudness', { exact: true }).waitFor();
    await dialog.getByText('\u221214.1 LUFS · peak \u22121.2 dBTP', { exact: true }).waitFor();

    const suggestions = dialog.getByRole('list', { name: 'Description suggestions' }).getByRole('listitem');
    await expect.poll(() => suggestions.count()).toBe(3);
    expect(await suggestions.nth(0).getByText('Best Match').count()).toBe(1);
    expect(await dialog.getByText('Best Match').count()).toBe(1);
    expect(await suggestions.nth(0).textContent()).toContain(BEST);
    expect(await dialog.getByTestId('rank').allTextContents()).toEqual(['92%', '75%', '40%']);

    await screenshotViewport(page, 'clips-details');
    const transcript = dialog.getByText(TRANSCRIPT);
    expect(await transcript.isVisible()).toBe(false);
    await dialog.getByText('Transcript', { exact: true }).click();
    await transcript.waitFor();
  });

  it('copies a suggestion into the editor, counts it, and saves the custom description', async () => {
    const dialog = detailsDialog();
    const editor = dialog.getByLabel('Custom description');
    const counter = dialog.getByTestId('description-counter');
    expect(await editor.inputValue()).toBe('');
    expect(await counter.textContent()).toBe('0 / 2200');

    await dialog.getByRole('button', { name: new RegExp(SECOND.slice(0, 20)) }).click();
    expect(await editor.inputValue()).toBe(SECOND);
    expect(await counter.textContent()).toBe(`${SECOND.length} / 2200`);
    expect(await dialog.getByTestId('hashtag-count').textContent()).toBe('3 hashtags');
    await expect.poll(async () => (await clipRow(ACE.clip_id))?.selected_description).toBe(1);

    const custom = `${SECOND} one versus four #overtime #esports`;
    await editor.fill(custom);
    expect(await counter.textContent()).toBe(`${custom.length} / 2200`);
    expect(await dialog.getByTestId('hashtag-count').textContent()).toBe('5 hashtags');
    await dialog.getByRole('button', { name: 'Save description' }).click();
    await toast('Description saved').waitFor();
    expect((await clipRow(ACE.clip_id))?.custom_description).toBe(custom);

    // Over the limit: the counter turns red and saving is blocked.
    await editor.fill('x'.repeat(2201));
    expect(await counter.textContent()).toContain('2201 / 2200');
    expect(await counter.getAttribute('data-over')).toBe('true');
    expect(await counter.evaluate((element) => getComputedStyle(element).color)).not.toBe(
      await dialog.getByTestId('hashtag-count').evaluate((element) => getComputedStyle(element).color),
    );
    expect(await dialog.getByRole('button', { name: 'Save description' }).isDisabled()).toBe(true);
    await editor.fill(custom);
    expect(await dialog.getByRole('button', { name: 'Save description' }).isDisabled()).toBe(false);
  });

  it('pauses the video when the modal closes and reopens with the saved description', async () => {
    const dialog = detailsDialog();
    await dialog.locator('video').evaluate(async (element: HTMLVideoElement) => {
      (window as unknown as { playedVideo: HTMLVideoElement }).playedVideo = element;
      element.muted = true;
      element.loop = true;
      await element.play();
    });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { playedVideo: HTMLVideoElement }).playedVideo.paused)).toBe(true);
    await expect.poll(bodyOverflow).not.toBe('hidden');

    await card(ACE.title).getByTestId('clip-thumbnail').click();
    await detailsDialog().waitFor();
    await expect.poll(() => detailsDialog().getByLabel('Custom description').inputValue()).toContain('#esports');
    expect(await detailsDialog().getByRole('button', { name: new RegExp(SECOND.slice(0, 20)) }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Escape');
    await detailsDialog().waitFor({ state: 'detached' });
  });

  it('shows a clip whose video retention deleted: its thumbnail and why, no player', async () => {
    const { id } = (await clipRow(TRIPLE.clip_id))!;
    await db().updateTable('clips').set({ media_expired_at: new Date('2026-04-12T10:00:00Z') }).where('id', '=', id).execute();
    try {
      await page.reload();
      await card(TRIPLE.title).getByTestId('clip-thumbnail').click();
      // detailsDialog() finds the dialog by its player, which this one has not.
      const dialog = page.getByRole('dialog');
      const expired = dialog.getByTestId('video-expired');
      await expired.waitFor();
      expect(await expired.textContent()).toContain('Video deleted on');
      expect(await expired.textContent()).toContain(MEDIA_EXPIRED_MESSAGE);
      expect(await dialog.locator('video').count()).toBe(0);
      // Only deleting is left to do with it.
      expect(await dialog.getByRole('button', { name: 'Download MP4' }).count()).toBe(0);
      expect(await dialog.getByRole('link', { name: 'Open studio' }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Delete' }).waitFor();
      await screenshotViewport(page, 'clips-details-expired');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await db().updateTable('clips').set({ media_expired_at: null }).where('id', '=', id).execute();
      await page.reload();
    }
  });

  it('downloads the MP4 named {clip_id}.mp4 from the card menu and from the details', async () => {
    await card(TRIPLE.title).getByRole('button', { name: 'Clip options' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download MP4' }).click()]);
    expect(download.suggestedFilename()).toBe(`${TRIPLE.clip_id}.mp4`);
    await toast(`Downloading clip: ${TRIPLE.title}`).waitFor();
    const saved = path.join(mediaDir, 'downloaded.mp4');
    await download.saveAs(saved);
    expect(readFileSync(saved).equals(horizontal.video)).toBe(true);

    await card(ACE.title).getByRole('button', { name: ACE.title }).click();
    const [fromDetails] = await Promise.all([
      page.waitForEvent('download'),
      detailsDialog().getByRole('button', { name: 'Download MP4' }).click(),
    ]);
    expect(fromDetails.suggestedFilename()).toBe(`${ACE.clip_id}.mp4`);
    await page.keyboard.press('Escape');
    await detailsDialog().waitFor({ state: 'detached' });
  });

  it('opens the post wizard from the card (posting itself is covered in posting.test.ts)', async () => {
    await card(ACE.title).getByRole('button', { name: 'Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Post clip' });
    await dialog.getByTestId('wizard-steps').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('deletes a clip after confirmation, from the card menu and from the details', async () => {
    await card(FAIL.title).getByRole('button', { name: 'Clip options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = confirmDialog();
    await confirm.getByText('This action cannot be undone. The clip will be permanently deleted.').waitFor();
    expect(await bodyOverflow()).toBe('hidden');
    await screenshotViewport(page, 'clips-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await clipRow(FAIL.clip_id)).toBeDefined();

    await card(FAIL.title).getByRole('button', { name: 'Clip options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await confirmDialog().getByRole('button', { name: 'Delete' }).click();
    await toast('Clip deleted successfully').waitFor();
    await card(FAIL.title).waitFor({ state: 'detached' });
    expect(await clipRow(FAIL.clip_id)).toBeUndefined();
    await page.getByText('Showing 1–3 of 3').waitFor();
    // The page is usable again (no pointer lock left behind by the menu or the dialog).
    expect(await page.evaluate(() => getComputedStyle(document.body).pointerEvents)).not.toBe('none');

    // From the details: the confirmation sits on top; cancelling keeps the details and the scroll lock.
    await card(LATE.title).getByRole('button', { name: LATE.title }).click();
    await detailsDialog().getByRole('button', { name: 'Delete' }).click();
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await confirmDialog().waitFor({ state: 'detached' });
    await detailsDialog().waitFor();
    expect(await bodyOverflow()).toBe('hidden');
    await detailsDialog().getByRole('button', { name: 'Delete' }).click();
    await confirmDialog().getByRole('button', { name: 'Delete' }).click();
    await toast('Clip deleted successfully').first().waitFor();
    await detailsDialog().waitFor({ state: 'detached' });
    await card(LATE.title).waitFor({ state: 'detached' });
    await expect.poll(bodyOverflow).not.toBe('hidden');
    await expectCards([ACE.title, TRIPLE.title]);

    // Put it back for the tests that follow.
    await addClip(LATE);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expectCards([LATE.title, ACE.title, TRIPLE.title]);
  });

  /** Makes every call of a procedure fail as if the server were unreachable, while `run` runs. */
  async function whileUnreachable(procedure: string, run: () => Promise<void>) {
    // Calls made in the same tick share one request (e.g. /api/trpc/streamers.list,clips.list).
    const matches = (url: URL) => url.pathname.startsWith('/api/trpc/') && decodeURIComponent(url.pathname).split(/[/,]/).includes(procedure);
    const abort = (route: Route) => route.abort('connectionrefused');
    await page.route(matches, abort);
    try {
      await run();
    } finally {
      await page.unroute(matches, abort);
    }
  }

  it('closes the details when they fail to load, and reports a failed manual refresh', async () => {
    await whileUnreachable('clips.details', async () => {
      await card(TRIPLE.title).getByRole('button', { name: TRIPLE.title }).click();
      await toast('Failed to load clip details').waitFor();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    });
    await whileUnreachable('clips.list', async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await toast('Failed to load clips').waitFor();
    });
    // What was shown stays on screen.
    await card(TRIPLE.title).waitFor();
  });

  it('says why a delete failed', async () => {
    await whileUnreachable('clips.delete', async () => {
      await card(TRIPLE.title).getByRole('button', { name: 'Clip options' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await confirmDialog().getByRole('button', { name: 'Delete' }).click();
      await toast('Failed to delete clip').waitFor();
    });
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await confirmDialog().waitFor({ state: 'detached' });
    await card(TRIPLE.title).waitFor();
  });

  it('names icon-only actions in a tooltip, on hover and on keyboard focus', async () => {
    const subtitles = card(ACE.title).getByRole('button', { name: 'Generate subtitles' });
    const tip = page.locator('[data-slot="tooltip-content"]').filter({ hasText: 'Generate subtitles' });
    await subtitles.hover();
    await tip.waitFor();
    await page.getByRole('tooltip', { name: 'Generate subtitles' }).waitFor({ state: 'attached' });
    await screenshotViewport(page, 'clips-tooltip');
    // The pointer leaves in steps: Radix closes on a move outside the trigger and its tooltip.
    await page.mouse.move(0, 0, { steps: 5 });
    await tip.waitFor({ state: 'detached' });

    await subtitles.focus();
    await tip.waitFor();
    await page.keyboard.press('Escape');
    await tip.waitFor({ state: 'detached' });

    await card(ACE.title).getByRole('button', { name: 'Clip options' }).hover();
    await page.locator('[data-slot="tooltip-content"]').filter({ hasText: 'Clip options' }).waitFor();
    await page.mouse.move(0, 0, { steps: 5 });
  });

  it('switches to the list view and remembers it after a reload', async () => {
    await page.getByRole('button', { name: 'List view' }).click();
    await row(ACE.title).waitFor();
    expect(await page.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');
    await row(ACE.title).getByText('Subtitled', { exact: true }).filter({ visible: true }).waitFor();
    await row(ACE.title).getByRole('cell', { name: 'pixelqueen', exact: true }).waitFor();
    await row(ACE.title).getByRole('cell', { name: 'Mar 1, 2026', exact: true }).waitFor();
    await row(ACE.title).getByRole('cell', { name: '5.4K views', exact: true }).waitFor();
    for (const name of ['Open details', 'Generate subtitles', 'Download MP4', 'Delete']) {
      await row(ACE.title).getByRole('button', { name }).waitFor();
    }
    await screenshot(page, 'clips-list');

    await page.reload();
    await row(ACE.title).waitFor();
    expect(await page.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');
    expect(await grid().count()).toBe(0);

    // The same streamer control as the card view.
    await chooseOption('Filter by streamer', 'PixelQueen');
    await expect.poll(() => table().getByRole('row').count()).toBe(3); // header + 2
    await chooseOption('Filter by streamer', 'All Streamers');
    await expect.poll(() => table().getByRole('row').count()).toBe(4);

    await row(TRIPLE.title).getByRole('button', { name: 'Open details' }).click();
    await detailsDialog().getByRole('heading', { name: TRIPLE.title }).waitFor();
    const box = await detailsDialog().locator('video').boundingBox();
    expect(box && box.width > box.height).toBe(true);
    // Rendered before loudness was measured: no Loudness line rather than an empty one.
    await detailsDialog().getByText('Views', { exact: true }).waitFor();
    expect(await detailsDialog().getByText('Loudness', { exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await detailsDialog().waitFor({ state: 'detached' });
    const [download] = await Promise.all([page.waitForEvent('download'), row(TRIPLE.title).getByRole('button', { name: 'Download MP4' }).click()]);
    expect(download.suggestedFilename()).toBe(`${TRIPLE.clip_id}.mp4`);
  });

  describe('subtitles (the server answer stubbed in the browser)', () => {
    interface StubbedCall {
      input: { id: string; model?: string };
      route: Route;
    }
    let calls: StubbedCall[] = [];
    const pattern = '**/api/trpc/subtitles.generate*';

    beforeAll(async () => {
      await page.route(pattern, (route) => {
        // subtitles.generate goes unbatched (it answers only when the work ends): the body is the input.
        calls.push({ input: JSON.parse(route.request().postData() ?? '{}') as StubbedCall['input'], route });
      });
    });

    afterAll(async () => {
      await page.unroute(pattern);
    });

    const answer = (call: StubbedCall, result: object) =>
      call.route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ result: { data: result } }) });
    const fail = (call: StubbedCall, status: number, code: string, message: string) =>
      call.route.fulfill({
        status,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message, code: -32603, data: { code, httpStatus: status, path: 'subtitles.generate' } } }),
      });

    async function nextCall(): Promise<StubbedCall> {
      await expect.poll(() => calls.length).toBeGreaterThan(0);
      return calls.shift()!;
    }

    it('shows a spinner, refuses a second request, then reloads the list with the badge', async () => {
      calls = [];
      await page.evaluate(() => localStorage.setItem('app-settings', JSON.stringify({ whisper_model: 'tiny-test' })));
      const button = row(TRIPLE.title).getByRole('button', { name: /Generat/ });
      await button.click();
      const info = toast('Generating subtitles for clip. This may take several minutes...');
      await info.waitFor();
      // On screen for 10 s, then the usual fade (toastTiming).
      expect(await info.getAttribute('style')).toContain('--toast-visible-ms: 10000ms');
      const call = await nextCall();
      expect(call.input).toEqual({ id: TRIPLE.clip_id, model: 'tiny-test' });
      expect(await row(TRIPLE.title).getByRole('button', { name: 'Generating subtitles…' }).getAttribute('aria-busy')).toBe('true');
      expect(await row(TRIPLE.title).locator('[data-generating] .animate-spin').count()).toBe(1);

      await row(TRIPLE.title).getByRole('button', { name: 'Generating subtitles…' }).click();
      await toast('Already generating subtitles for clip').waitFor();
      expect(calls.length).toBe(0);

      await db().updateTable('clips').set({ subtitled: true }).where('clip_id', '=', TRIPLE.clip_id).execute();
      await answer(call, { ok: true, message: 'Subtitles generated successfully for clip!' });
      await toast('Subtitles generated successfully for clip!').waitFor();
      await row(TRIPLE.title).getByText('Subtitled', { exact: true }).filter({ visible: true }).waitFor();
      await row(TRIPLE.title).getByRole('button', { name: 'Generate subtitles' }).waitFor();
    });

    it('closes open details of that clip and opens them again afterwards, with the new video', async () => {
      await db().updateTable('clips').set({ subtitled: false }).where('clip_id', '=', LATE.clip_id).execute();
      await row(LATE.title).getByRole('button', { name: 'Open details' }).click();
      const dialog = detailsDialog();
      await dialog.getByRole('heading', { name: LATE.title }).waitFor();
      await dialog.locator('video').evaluate((element) => element.setAttribute('data-old', 'yes'));
      await dialog.getByRole('button', { name: 'Generate subtitles' }).click();
      const call = await nextCall();
      await dialog.getByRole('button', { name: 'Generating subtitles…' }).waitFor();
      await db().updateTable('clips').set({ subtitled: true }).where('clip_id', '=', LATE.clip_id).execute();
      await answer(call, { ok: true, message: 'Subtitles generated successfully for clip!' });
      await toast('Subtitles generated successfully for clip!').first().waitFor();
      await page.locator('video[data-old]').waitFor({ state: 'detached' });
      await detailsDialog().getByRole('heading', { name: LATE.title }).waitFor();
      await detailsDialog().getByText('Subtitled', { exact: true }).waitFor();
      expect(await page.locator('video').count()).toBe(1);
      await page.keyboard.press('Escape');
      await detailsDialog().waitFor({ state: 'detached' });
    });

    it('reports no speech, server refusals and a lost connection', async () => {
      const start = async () => {
        await row(ACE.title).getByRole('button', { name: 'Generate subtitles' }).click();
        return nextCall();
      };
      await answer(await start(), { ok: false, no_speech: true, message: 'No speech found in this clip' });
      await toast('No speech found in this clip').waitFor();
      expect(await toast('No speech found in this clip').getAttribute('data-type')).toBe('info');

      await fail(await start(), 502, 'BAD_GATEWAY', 'Transcription failed: model not found');
      await toast('Error: Transcription failed: model not found').waitFor();

      await fail(await start(), 409, 'CONFLICT', 'Already generating subtitles for clip');
      await expect.poll(() => toast('Already generating subtitles for clip').count()).toBeGreaterThan(0);

      await (await start()).route.abort('connectionreset');
      await toast('Failed to generate subtitles for clip').waitFor();
      await row(ACE.title).getByRole('button', { name: 'Generate subtitles' }).waitFor();
    });
  });

  it(
    'generates subtitles for real: spinner, success, the badge, and the details reopened on the new video',
    async () => {
      // The user's speech-model preference is what the server is asked for.
      await page.evaluate(() => localStorage.setItem('app-settings', JSON.stringify({ whisper_model: 'whisper-1' })));
      // Toasts of the stubbed runs must be gone, so the ones below are this run's.
      for (const text of ['Subtitles generated successfully for clip!', 'Generating subtitles for clip.']) {
        await expect.poll(() => toast(text).count()).toBe(0);
      }
      await addClip({ ...LATE, clip_id: 'RealSubtitles', title: 'Real subtitles please', created: '2026-03-06T10:00:00Z' });
      await page.getByRole('button', { name: 'Refresh' }).click();
      await row('Real subtitles please').getByRole('button', { name: 'Open details' }).click();
      const dialog = detailsDialog();
      await dialog.getByRole('heading', { name: 'Real subtitles please' }).waitFor();
      const video = dialog.locator('video');
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBe(360);
      expect(await dialog.getByText('Subtitled', { exact: true }).count()).toBe(0);

      await dialog.getByRole('button', { name: 'Generate subtitles' }).click();
      await toast('Generating subtitles for clip. This may take several minutes...').waitFor();
      await dialog.getByRole('button', { name: 'Generating subtitles…' }).waitFor();
      // The row behind the modal (hidden from the accessibility tree meanwhile) shows the spinner too.
      expect(await page.locator('tr[data-clip-id="RealSubtitles"] button[data-generating]').getAttribute('aria-busy')).toBe('true');

      await toast('Subtitles generated successfully for clip!').waitFor({ timeout: SUBTITLE_RUN_TIMEOUT_MS - 30_000 });
      expect(openai.uploads.at(-1)?.model).toBe('whisper-1');
      // Closed and opened again: the player now shows the subtitled 1080x1920 render.
      await detailsDialog().getByRole('heading', { name: 'Real subtitles please' }).waitFor();
      await detailsDialog().getByText('Subtitled', { exact: true }).waitFor();
      await expect.poll(() => detailsDialog().locator('video').evaluate((element: HTMLVideoElement) => element.videoWidth)).toBe(1080);
      await detailsDialog().getByText('Transcript', { exact: true }).click();
      await detailsDialog().getByText(/no way/i).first().waitFor();
      await screenshotViewport(page, 'clips-details-subtitled');
      await page.keyboard.press('Escape');
      await detailsDialog().waitFor({ state: 'detached' });
      await row('Real subtitles please').getByText('Subtitled', { exact: true }).filter({ visible: true }).waitFor();
      expect((await clipRow('RealSubtitles'))?.subtitled).toBe(true);
    },
    SUBTITLE_RUN_TIMEOUT_MS,
  );

  it('reloads by itself once the last load is 60 s old', async () => {
    await page.clock.install();
    await page.reload();
    await row(ACE.title).waitFor();
    const before = listCalls.length;
    await addClip({ ...LATE, clip_id: 'FreshFromSchedule', title: 'Fresh from the schedule', created: '2026-03-20T10:00:00Z' });
    await page.clock.runFor(30_000);
    expect(await row('Fresh from the schedule').count()).toBe(0);
    expect(listCalls.length).toBe(before);
    await page.clock.runFor(31_000);
    await row('Fresh from the schedule').waitFor();
    expect(listCalls.length).toBe(before + 1);
  });

  it('lays out for a phone', async () => {
    await page.getByRole('button', { name: 'Card view' }).click();
    await page.setViewportSize(PHONE);
    await card(ACE.title).waitFor();
    const widths = await grid().getByRole('listitem').evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().left)));
    expect(new Set(widths).size).toBe(1); // one column
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, 'clips-mobile');
    await card(ACE.title).getByRole('button', { name: ACE.title }).click();
    await detailsDialog().getByRole('heading', { name: ACE.title }).waitFor();
    await screenshotViewport(page, 'clips-mobile-details');
    // The loudness figures have a row of their own: whole, not cut off with an ellipsis, on a phone too.
    const loudness = detailsDialog().getByText('\u221214.1 LUFS · peak \u22121.2 dBTP', { exact: true });
    await loudness.scrollIntoViewIfNeeded();
    expect(await loudness.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenshotViewport(page, 'clips-mobile-details-loudness');
    await page.keyboard.press('Escape');
    await detailsDialog().waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('pages through more than 50 clips', async () => {
    await addStreamer('bulkbot', 'BulkBot');
    for (let index = 0; index < 51; index++) {
      const { dir } = await seedClip(server.app.deps, userId, {
        clip_id: `Bulk${String(index).padStart(2, '0')}`,
        title: `Bulk clip ${index}`,
        streamer_name: 'bulkbot',
        view_count: index,
        twitch_created_at: new Date(Date.UTC(2025, 0, 1, 0, index)),
      });
      await writeFile(path.join(dir, CLIP_FILES.thumbnail), vertical.thumbnail);
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    await chooseOption('Filter by streamer', 'BulkBot');
    await page.getByText('Showing 1–50 of 51').waitFor();
    expect(await grid().getByRole('listitem').count()).toBe(50);
    const previous = page.getByRole('button', { name: 'Previous' });
    const next = page.getByRole('button', { name: 'Next' });
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await page.getByText('Showing 51–51 of 51').waitFor();
    await expectCards(['Bulk clip 0']);
    expect(await next.isDisabled()).toBe(true);
    expect(listCalls.at(-1)).toMatchObject({ streamer: 'bulkbot', page: 2 });
    await previous.click();
    await page.getByText('Showing 1–50 of 51').waitFor();
    // A new filter starts again at page 1.
    await next.click();
    await page.getByText('Showing 51–51 of 51').waitFor();
    await page.getByRole('searchbox', { name: 'Search clips by title' }).fill('Bulk clip 4');
    await page.getByText('Showing 1–11 of 11').waitFor();
  });

  it('had no uncaught page errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
