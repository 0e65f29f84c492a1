import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, pathnameOf, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, horizontalOverflow, inEachLook, toast as toastOn, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { clipCard, detailsDialog } from './pages/clips.ts';
import { editStreamerDialog, streamerCard } from './pages/streamers.ts';
import { renderLimitMs, renderTestLimitMs } from '../helpers/limits.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FFMPEG = path.join(ROOT, 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg');

const USER = { username: 'director', password: 'a long enough password' };
const CLIP = { clip_id: 'CamCorner', title: 'Camera in the corner' };
const STREAMER = 'pixelqueen';
/** The source: 640x360, 4 s, a red "camera" filling the top-left quarter's corner. */
const SOURCE = { width: 640, height: 360, seconds: 4 };
const CAMERA = { w: 0.25, h: 1 / 3 };
const SAVED = 'Studio settings saved';
/** A real 1080x1920 render of 2 s on a shared machine. */
const RENDER_TIMEOUT_MS = renderLimitMs(1);

function makeCameraSource(dir: string): Buffer {
  const file = path.join(dir, 'camera.mp4');
  const picture = [
    `testsrc2=size=${SOURCE.width}x${SOURCE.height}:rate=30:duration=${SOURCE.seconds}`,
    `drawbox=x=0:y=0:w=${SOURCE.width * CAMERA.w}:h=${SOURCE.height * CAMERA.h}:color=red:t=fill`,
  ].join(',');
  execFileSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', picture, '-f', 'lavfi', '-i', `sine=duration=${SOURCE.seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file],
  ]);
  return readFileSync(file);
}

/** The picture an <img> shows, read back through a canvas: a few rows of colours to compare. */
function pixels(image: Locator, points: readonly (readonly [number, number])[]): Promise<number[][]> {
  return image.evaluate((element, at) => {
    const img = element as HTMLImageElement;
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) return [];
    context.drawImage(img, 0, 0);
    return at.map(([fx, fy]) => Array.from(context.getImageData(Math.floor(fx * canvas.width), Math.floor(fy * canvas.height), 1, 1).data.slice(0, 3)));
  }, points);
}

const isRed = ([r = 0, g = 0, b = 0]: number[]) => r > 170 && g < 90 && b < 90;

/** A spread of points over the whole picture: two different pictures differ in some of them. */
const GRID = Array.from({ length: 25 }, (_, index) => [0.1 + 0.2 * (index % 5), 0.1 + 0.2 * Math.floor(index / 5)] as const);

/**
 * The studio (issue 11): regions dragged and resized on the source frame change the live preview,
 * saving stores them, a render shows its progress and ends in a video that plays, the trim is set
 * on the timeline; the streamer's defaults are set from one of its clips.
 */
describe('studio: regions, live preview, save, render, trim, streamer defaults', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let clipRowId = '';

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-studio-'));
    server = await startE2eApp({}, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  const db = () => server.app.deps.db;
  const toast = (text: string) => toastOn(page, text);
  const previewImage = () => page.getByTestId('preview-frame').locator('img');
  const frameImage = () => page.getByTestId('source-frame').locator('img');
  const region = (id: 'facecam' | 'gameplay') => page.getByTestId(`region-${id}`);
  const savedEditOf = async (id: string) => (await db().selectFrom('clips').select('edit').where('id', '=', id).executeTakeFirstOrThrow()).edit;
  const savedEdit = () => savedEditOf(clipRowId);

  /** Waits for a loaded preview other than `before` (a blob URL) and returns its URL. */
  async function nextPreview(before: string | null): Promise<string> {
    await expect.poll(async () => (await previewImage().count()) > 0 && (await previewImage().getAttribute('src')) !== before).toBe(true);
    await expect.poll(() => previewImage().evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)).toBe(true);
    return (await previewImage().getAttribute('src')) ?? '';
  }

  async function boxOf(locator: Locator) {
    const box = await locator.boundingBox();
    if (!box) throw new Error('not on screen');
    return box;
  }

  /** Saves; the toast waited for is this save's (an earlier one has gone first). */
  async function saveAndWait() {
    await waitForToastsGone(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(SAVED).waitFor();
  }

  /** Drags with the mouse in small steps, as a hand would. */
  async function drag(from: { x: number; y: number }, to: { x: number; y: number }) {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
  }

  it('opens the studio from the clip details, with the source frame and a preview', async () => {
    await register(page, USER);
    const userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
    await seedStreamer(server.app.deps, userId, STREAMER, 'PixelQueen');
    const seeded = await seedClip(server.app.deps, userId, { ...CLIP, streamer_name: STREAMER, video: makeCameraSource(mediaDir) });
    clipRowId = seeded.id;
    await db().updateTable('clips').set({ duration: SOURCE.seconds, output_duration: SOURCE.seconds }).where('id', '=', clipRowId).execute();

    await page.goto('/app/clips');
    await clipCard(page, CLIP.title).getByRole('button', { name: CLIP.title, exact: true }).click();
    await detailsDialog(page).getByRole('link', { name: 'Open studio' }).click();
    await heading(page, 'Studio').waitFor();
    expect(pathnameOf(page)).toBe(`/app/clips/${CLIP.clip_id}/studio`);
    await expect.poll(() => page.title()).toBe('Studio · Clipshift');
    // The untouched source: the camera corner is red at the frame's own size.
    await expect.poll(() => frameImage().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(SOURCE.width);
    expect(isRed((await pixels(frameImage(), [[0.1, 0.1]]))[0] ?? [])).toBe(true);
    await nextPreview(null);
    expect(await previewImage().evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight])).toEqual([1080, 1920]);
    await page.getByText('Streamer default', { exact: true }).first().waitFor();
    expect(await page.getByTestId('dirty-state').textContent()).toBe('All changes saved');
  });

  it('drags and resizes the facecam region onto the camera: the preview shows it on top', async () => {
    let shown = (await previewImage().getAttribute('src')) ?? '';
    await page.getByRole('radio', { name: /Facecam \+ gameplay/ }).check();
    shown = await nextPreview(shown);
    await region('facecam').waitFor();
    await region('gameplay').waitFor();
    const before = await pixels(previewImage(), GRID);

    // Move the facecam from the top-right corner to the top-left one, over the red camera. Choosing
    // the layout scrolled its tile into view: back to the top, so the region lies whole below the
    // sticky header (a press under the header would land on the header).
    await page.evaluate(() => window.scrollTo(0, 0));
    const frame = await boxOf(page.getByTestId('source-frame'));
    const facecam = await boxOf(region('facecam'));
    await drag({ x: facecam.x + facecam.width / 2, y: facecam.y + facecam.height / 2 }, { x: facecam.x + facecam.width / 2 - frame.width, y: facecam.y + facecam.height / 2 - frame.height });
    await expect.poll(() => region('facecam').getAttribute('aria-label')).toBe('Facecam region: left 0%, top 0%, 25% wide, 30% high');

    // Shrink it from its bottom-right corner to lie inside the camera.
    const handle = await boxOf(region('facecam').locator('[data-handle="se"]'));
    await drag({ x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }, { x: handle.x + handle.width / 2 - frame.width * 0.05, y: handle.y + handle.height / 2 });
    await expect.poll(() => region('facecam').getAttribute('aria-label')).toBe('Facecam region: left 0%, top 0%, 20% wide, 30% high');

    await nextPreview(shown);
    // The facecam band (the top 35%) is all camera once the latest preview is in: red across it.
    const band = [[0.2, 0.1], [0.5, 0.17], [0.8, 0.3]] as const;
    await expect.poll(async () => (await pixels(previewImage(), band)).every(isRed)).toBe(true);
    expect(await pixels(previewImage(), GRID)).not.toEqual(before);
    expect(await page.getByTestId('dirty-state').textContent()).toBe('Unsaved changes');
  });

  it('moves and resizes a region with the keyboard', async () => {
    await region('gameplay').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region('gameplay').getAttribute('aria-label')).toBe('Gameplay region: left 0%, top 0%, 100% wide, 100% high');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region('gameplay').getAttribute('aria-label')).toBe('Gameplay region: left 1%, top 0%, 98% wide, 100% high');
  });

  it('saves the regions to the clip', async () => {
    await saveAndWait();
    const edit = await savedEdit();
    expect(edit.layout).toBe('split');
    expect(edit.facecam).toEqual({ x: 0, y: 0, w: 0.2, h: 0.3 });
    expect(edit.gameplay).toEqual({ x: 0.01, y: 0, w: 0.98, h: 1 });
    await expect.poll(() => page.getByTestId('dirty-state').textContent()).toBe('All changes saved');
    expect(await page.getByText('This clip', { exact: true }).count()).toBeGreaterThan(0);
  });

  it('sets the trim on the timeline and saves it', async () => {
    await page.getByRole('tab', { name: 'Trim & audio' }).click();
    const start = page.getByRole('slider', { name: 'Trim start' });
    const video = page.getByTestId('studio-video');
    await expect.poll(() => video.evaluate((element) => (element as HTMLVideoElement).readyState)).toBeGreaterThanOrEqual(1);
    // Dragged a quarter of the way along the 4 s timeline: 1 s.
    await page.getByTestId('trim-timeline').scrollIntoViewIfNeeded();
    const track = await boxOf(page.getByTestId('trim-timeline'));
    const handle = await boxOf(start);
    await drag({ x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }, { x: track.x + track.width * 0.25, y: handle.y + handle.height / 2 });
    await expect.poll(async () => Number(await start.getAttribute('aria-valuenow'))).toBeCloseTo(1, 0);
    // Exactly 1.0 with the keyboard: Home, then Page Up.
    await start.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('PageUp');
    await expect.poll(() => start.getAttribute('aria-valuenow')).toBe('1');

    // The end at the player's playhead: 3 s into the (untrimmed) video.
    await video.evaluate((element) => {
      (element as HTMLVideoElement).currentTime = 3;
    });
    await expect.poll(() => page.getByTestId('trim-playhead').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Set end here' }).click();
    await expect.poll(() => page.getByRole('slider', { name: 'Trim end' }).getAttribute('aria-valuenow')).toBe('3');
    expect(await page.getByTestId('trim-values').textContent()).toContain('Length2.0 s');

    // The kept part never gets shorter than a second.
    await page.getByRole('slider', { name: 'Trim end' }).focus();
    await page.keyboard.press('Home');
    await expect.poll(() => page.getByRole('slider', { name: 'Trim end' }).getAttribute('aria-valuenow')).toBe('2');
    await page.keyboard.press('PageUp');

    await saveAndWait();
    const edit = await savedEdit();
    expect([edit.trim_start, edit.trim_end]).toEqual([1, 3]);
  });

  it('renders again with progress, and the new video plays', async () => {
    await waitForToastsGone(page);
    const oldSource = await page.getByTestId('studio-video').getAttribute('src');
    await page.getByRole('button', { name: 'Render again' }).click();
    await page.getByTestId('render-progress').waitFor();
    expect(await page.getByRole('button', { name: 'Stop' }).isEnabled()).toBe(true);
    await page.getByTestId('render-progress').waitFor({ state: 'detached', timeout: RENDER_TIMEOUT_MS });
    expect(await page.getByTestId('render-failed').count()).toBe(0);
    // The end is said, not only the progress line going away.
    await toast('Rendered again: the new video is ready').waitFor();
    const clip = await db().selectFrom('clips').select(['output_duration']).where('id', '=', clipRowId).executeTakeFirstOrThrow();
    expect(clip.output_duration).toBeCloseTo(2, 0);

    // The player took the new video (a new version in its URL) and plays it.
    const video = page.getByTestId('studio-video');
    await expect.poll(() => video.getAttribute('src')).not.toBe(oldSource);
    // Its poster too: the new video's picture, not the old one the browser has cached under the same path.
    expect(await video.getAttribute('poster')).toBe((await video.getAttribute('src'))!.replace('/video?', '/thumbnail?'));
    await expect.poll(() => video.evaluate((element) => (element as HTMLVideoElement).readyState)).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((element) => (element as HTMLVideoElement).duration)).toBeCloseTo(2, 0);
    await video.evaluate(async (element) => {
      const player = element as HTMLVideoElement;
      player.muted = true;
      player.currentTime = 0;
      await player.play();
    });
    // Playing: its clock moves, however little a busy machine has played by now.
    await expect.poll(() => video.evaluate((element) => (element as HTMLVideoElement).currentTime)).toBeGreaterThan(0);
    await video.evaluate((element) => (element as HTMLVideoElement).pause());
  }, renderTestLimitMs(1));

  /** Renders again from the studio and waits for the player to take the new video. */
  async function renderAndReload(): Promise<void> {
    await waitForToastsGone(page);
    // The player lives on the Trim & audio tab.
    await page.getByRole('tab', { name: 'Trim & audio' }).click();
    const before = await page.getByTestId('studio-video').getAttribute('src');
    await page.getByRole('button', { name: 'Render again' }).click();
    await page.getByTestId('render-progress').waitFor();
    await page.getByTestId('render-progress').waitFor({ state: 'detached', timeout: RENDER_TIMEOUT_MS });
    expect(await page.getByTestId('render-failed').count()).toBe(0);
    await expect.poll(() => page.getByTestId('studio-video').getAttribute('src')).not.toBe(before);
  }

  /** The caption band of the player's picture at `atSec` of the rendered video, read through a canvas. */
  function captionBand(atSec: number): Promise<number[]> {
    return page.getByTestId('studio-video').evaluate(async (element, at) => {
      const player = element as HTMLVideoElement;
      if (player.readyState < 2) await new Promise((resolve) => player.addEventListener('loadeddata', resolve, { once: true }));
      player.pause();
      player.currentTime = at;
      await new Promise((resolve) => player.addEventListener('seeked', resolve, { once: true }));
      const canvas = document.createElement('canvas');
      canvas.width = player.videoWidth;
      canvas.height = player.videoHeight;
      const context = canvas.getContext('2d');
      if (!context) return [];
      context.drawImage(player, 0, 0);
      // The classic preset centres the caption block at 68 % of the height.
      const top = Math.round(canvas.height * 0.62);
      const band = context.getImageData(0, top, canvas.width, Math.round(canvas.height * 0.12)).data;
      const sums: number[] = [];
      for (let column = 0; column < 24; column++) {
        let sum = 0;
        const from = Math.floor((column * canvas.width) / 24);
        const to = Math.floor(((column + 1) * canvas.width) / 24);
        for (let row = 0; row < band.length / 4 / canvas.width; row += 2) {
          for (let x = from; x < to; x += 2) sum += band[(row * canvas.width + x) * 4]!;
        }
        sums.push(sum);
      }
      return sums;
    }, atSec);
  }

  it('edits a caption word in the transcript and sees it in the re-rendered video', async () => {
    // The clip was transcribed: its words lie inside the 1..3 s trim.
    const words = [
      { start: 1.1, end: 1.5, text: 'nice' },
      { start: 1.5, end: 2.9, text: 'shot' },
    ];
    await db()
      .updateTable('clips')
      .set({ subtitled: true, transcript: 'nice shot', transcript_words: JSON.stringify(words), transcript_language: 'en' })
      .where('id', '=', clipRowId)
      .execute();
    await page.reload();
    await renderAndReload();
    const before = await captionBand(1);

    await page.getByRole('tab', { name: 'Transcript' }).click();
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByRole('button', { name: /^shot at / }).click();
    await transcript.getByRole('group', { name: /^Word \d+,/ }).getByRole('textbox').fill('WOWZERS!!');
    await page.keyboard.press('Enter');
    await transcript.getByRole('button', { name: 'Save' }).click();
    await toast('Transcript saved').waitFor();
    await renderAndReload();
    const after = await captionBand(1);

    // The same moment now shows other letters: the caption band changed where the new word sits.
    const changed = after.filter((value, index) => Math.abs(value - before[index]!) > before[index]! * 0.05).length;
    expect(changed).toBeGreaterThan(2);
    const saved = await db().selectFrom('clips').select(['transcript_words', 'transcript_edited']).where('id', '=', clipRowId).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ transcript_edited: true, transcript_words: [words[0], { ...words[1], text: 'WOWZERS!!' }] });
  }, renderTestLimitMs(2));

  it('looks right at 390 and 1366 px, light and dark, with no axe violations and no sideways scroll', async () => {
    await page.getByRole('tab', { name: 'Layout' }).click();
    await waitForToastsGone(page);
    await inEachLook(page, async ({ width, theme }) => {
      await region('facecam').waitFor();
      expect(await horizontalOverflow(page), `${width} ${theme}`).toBeLessThanOrEqual(0);
      await screenshot(page, `studio-${width}-${theme}`);
      expect(describeViolations(await axeViolations(page)), `${width} ${theme}`).toEqual([]);
    });
    // The other tabs: at a phone's width in dark, and a laptop's in light.
    for (const [width, height, theme] of [[390, 844, 'dark'], [1366, 900, 'light']] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: theme });
      for (const [tab, name] of [['Captions', 'captions'], ['Trim & audio', 'trim']] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel', { name: tab }).waitFor();
        expect(await horizontalOverflow(page), `${name} ${width} ${theme}`).toBeLessThanOrEqual(0);
        await screenshot(page, `studio-${name}-${width}-${theme}`);
        expect(describeViolations(await axeViolations(page)), `${name} ${width} ${theme}`).toEqual([]);
      }
    }
    await page.getByRole('tab', { name: 'Layout' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone, the regions still move by touch-sized handles, and the preview folds away.
    await page.getByRole('button', { name: 'Hide' }).click();
    expect(await page.getByTestId('preview-frame').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('preview-frame').waitFor();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('resets a section to the streamer default', async () => {
    await page.getByRole('button', { name: 'Reset to streamer default' }).click();
    expect(await page.getByRole('radio', { name: /Blurred background/ }).isChecked()).toBe(true);
    expect(await region('facecam').count()).toBe(0);
    // Leaving with unsaved changes asks first; staying keeps them.
    await page.getByRole('main').getByRole('link', { name: 'Clips' }).click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor({ state: 'detached' });
    expect(pathnameOf(page)).toBe(`/app/clips/${CLIP.clip_id}/studio`);
    expect(await page.getByTestId('dirty-state').textContent()).toBe('Unsaved changes');
    await saveAndWait();
    const edit = await savedEdit();
    expect([edit.layout ?? null, edit.facecam ?? null, edit.trim_start]).toEqual([null, null, 1]);
  });

  it('sets the streamer defaults from one of its clips, chosen in the streamer dialog', async () => {
    await page.goto('/app/streamers');
    await streamerCard(page, 'PixelQueen').getByRole('button', { name: /Edit/ }).click();
    await editStreamerDialog(page).getByRole('button', { name: 'Set layout and captions from a clip…' }).click();
    await editStreamerDialog(page).getByRole('link', { name: CLIP.title }).click();
    await heading(page, 'Studio').waitFor();
    expect(pathnameOf(page)).toBe(`/app/streamers/${STREAMER}/studio`);
    await page.getByText('Defaults for').waitFor();
    await nextPreview(null);

    await page.getByRole('tab', { name: 'Captions' }).click();
    await page.getByRole('radio', { name: 'Bold' }).check();
    await page.getByRole('tab', { name: 'Audio' }).click();
    await page.getByRole('switch', { name: 'Normalise loudness' }).click();
    await page.getByRole('button', { name: 'Save streamer defaults' }).click();
    await toast('Streamer defaults saved').waitFor();
    const streamer = await db().selectFrom('streamers').selectAll().where('name', '=', STREAMER).executeTakeFirstOrThrow();
    expect(streamer).toMatchObject({ normalize_audio: false });
    expect(JSON.stringify(streamer)).toContain('"preset":"bold"');

    // The saved toast offers the new look to the streamer's clips not yet posted: one re-render
    // each, which the toast saying so can stop. (The clip is the streamer's for this step only.)
    await db().updateTable('clips').set({ streamer_id: streamer.id }).where('id', '=', clipRowId).execute();
    try {
      await toast('Streamer defaults saved').getByRole('button', { name: 'Apply to clips not yet posted' }).click();
      const applied = toast(`Rendering 1 clip of ${STREAMER} again with the new look`);
      await applied.waitFor();
      await applied.getByRole('button', { name: 'Stop' }).click();
      await toast(`Stopped 1 render of ${STREAMER}: those clips keep their previous video`).waitFor();
      const requests = await db().selectFrom('subtitle_requests').select(['kind', 'status']).where('clip_row_id', '=', clipRowId).orderBy('created_at', 'desc').execute();
      expect(requests[0]).toEqual({ kind: 'render', status: 'stopped' });
    } finally {
      await db().updateTable('clips').set({ streamer_id: null }).where('id', '=', clipRowId).execute();
    }
  });

  it('shows a trimmed clip with its rendered length on its card', async () => {
    // Rendered above from 1 s to 3 s of the 4 s source.
    await page.goto('/app/clips');
    // The length on the picture: the rendered video's 2 s, not the source's 4 s.
    await expect.poll(() => clipCard(page, CLIP.title).getByTestId('clip-thumbnail').getByText(/^\d+:\d\d$/).textContent(), { timeout: 10_000 }).toBe('0:02');
  });

  it('makes a clip kept horizontal vertical: Vertical/Horizontal per clip, the layouts only for vertical', async () => {
    const wide = { clip_id: 'WideShot', title: 'Kept wide' };
    const userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
    const seeded = await seedClip(server.app.deps, userId, { ...wide, streamer_name: STREAMER, video: makeCameraSource(mediaDir) });
    const streamerRow = await db().selectFrom('streamers').select('id').where('name', '=', STREAMER).executeTakeFirstOrThrow();
    await db()
      .updateTable('clips')
      .set({ streamer_id: streamerRow.id, format_type: 'horizontal', width: SOURCE.width, height: SOURCE.height, duration: SOURCE.seconds, output_duration: SOURCE.seconds })
      .where('id', '=', seeded.id)
      .execute();
    await page.goto(`/app/clips/${wide.clip_id}/studio`);
    await heading(page, 'Studio').waitFor();
    const format = page.getByRole('radiogroup', { name: 'Format' });
    expect(await format.getByRole('radio', { name: /Horizontal/ }).isChecked()).toBe(true);
    await page.getByText('As downloaded', { exact: true }).waitFor();
    // Kept horizontal: no layouts to choose, a preview at the source's own size.
    expect(await page.getByRole('radiogroup', { name: 'Layout' }).count()).toBe(0);
    await nextPreview(null);
    expect(await previewImage().evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight])).toEqual([SOURCE.width, SOURCE.height]);
    await waitForToastsGone(page);
    await inEachLook(page, async ({ width, theme }) => {
      expect(await horizontalOverflow(page), `${width} ${theme}`).toBeLessThanOrEqual(0);
      await screenshot(page, `studio-horizontal-${width}-${theme}`);
      expect(describeViolations(await axeViolations(page)), `horizontal ${width} ${theme}`).toEqual([]);
    });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });

    // Vertical: the layouts appear, and the preview is 9:16 with the chosen one.
    const wideShown = (await previewImage().getAttribute('src')) ?? '';
    await format.getByRole('radio', { name: /Vertical/ }).check();
    await page.getByRole('radiogroup', { name: 'Layout' }).getByRole('radio', { name: /Crop/ }).check();
    await nextPreview(wideShown);
    await expect.poll(() => previewImage().evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight])).toEqual([1080, 1920]);
    await page.getByTestId('crop-window').waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
      await screenshot(page, `studio-made-vertical-1366-${theme}`);
      expect(describeViolations(await axeViolations(page)), `made vertical ${theme}`).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Rendered so: the clip is vertical now, and the player shows the 1080x1920 video at once.
    await page.getByRole('button', { name: 'Render again' }).click();
    await page.getByTestId('render-progress').waitFor();
    await toast('Rendered again: the new video is ready').waitFor({ timeout: RENDER_TIMEOUT_MS });
    expect(await savedEditOf(seeded.id)).toMatchObject({ format: 'vertical', layout: 'crop' });
    await page.getByRole('tab', { name: 'Trim & audio' }).click();
    await expect.poll(() => page.getByTestId('studio-video').evaluate((element) => (element as HTMLVideoElement).videoWidth), { timeout: 15_000 }).toBe(1080);
    await page.goto('/app/clips');
    await clipCard(page, wide.title).locator('[data-format]').first().waitFor();
    expect(await clipCard(page, wide.title).locator('[data-format="vertical"]').count()).toBeGreaterThan(0);
  }, RENDER_TIMEOUT_MS + 60_000);

  it('had no uncaught page errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
