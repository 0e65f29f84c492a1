import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Request } from 'playwright-core';
import { LOGO_MAX_BYTES, type Rect } from '@clipshift/shared';
import { DETECTION_SET, makeSource } from '../helpers/camera-sources.ts';
import { seedClip } from '../helpers/clips.ts';
import { renderLimitMs, renderTestLimitMs } from '../helpers/limits.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, pathnameOf, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, horizontalOverflow, inEachLook, toast as toastOn, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FFMPEG = path.join(ROOT, 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg');

const USER = { username: 'lookmaker', password: 'a long enough password' };
const STREAMER = 'camqueen';
const CLIP = { clip_id: 'CamTopRight', title: 'Camera top right' };
const SUGGESTION = 'Nobody saw that coming';
/** A source of the detection set (a webcam in the top-right corner over a fractal zoom), cut to 3 s. */
const SOURCE = { ...DETECTION_SET.find((spec) => spec.name === 'cam-tr-mandelbrot-margin')!, name: 'e2e-look-cam-tr', seconds: 3 };
/** One spoken word over the middle of the clip, where the preview looks: the captions show there. */
const WORDS = [{ start: 0.5, end: 2.6, text: 'insane' }];
const RENDER_TIMEOUT_MS = renderLimitMs(1);

/** The camera source with a sine tone muxed in (a clip as Twitch gives it has sound). */
async function makeCameraClip(dir: string): Promise<{ video: Buffer; truth: Rect }> {
  const made = await makeSource(FFMPEG, SOURCE, dir);
  const file = path.join(dir, 'camera-with-sound.mp4');
  execFileSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', made.file],
    ...['-f', 'lavfi', '-i', `sine=duration=${SOURCE.seconds}`],
    ...['-c:v', 'copy', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file],
  ]);
  return { video: readFileSync(file), truth: made.truth! };
}

/** A 240x120 PNG logo: two colour blocks on a transparent ground. */
function makeLogo(dir: string): Buffer {
  const file = path.join(dir, 'logo.png');
  execFileSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    // Overlaid rather than drawn: drawbox leaves the alpha as it was (transparent).
    ...['-filter_complex', 'color=c=0x00000000:s=240x120,format=rgba[ground];color=c=0xff3366:s=100x100,format=rgba[square];color=c=0x33ccff:s=100x60,format=rgba[bar];[ground][square]overlay=10:10:format=rgb[left];[left][bar]overlay=130:30:format=rgb,format=rgba'],
    ...['-frames:v', '1', file],
  ]);
  return readFileSync(file);
}

const percent = (value: number) => `${Math.round(value * 100)}%`;
const described = (rect: Rect) => `left ${percent(rect.x)}, top ${percent(rect.y)}, ${percent(rect.w)} wide, ${percent(rect.h)} high`;

/** The picture an <img> shows, shrunk to 54x96 grey levels: two different pictures differ in many of them. */
function thumbprint(image: Locator): Promise<number[]> {
  return image.evaluate((element) => {
    const img = element as HTMLImageElement;
    const canvas = document.createElement('canvas');
    canvas.width = 54;
    canvas.height = 96;
    const context = canvas.getContext('2d');
    if (!context) return [];
    context.drawImage(img, 0, 0, canvas.width, canvas.height);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const grey: number[] = [];
    for (let index = 0; index < data.length; index += 4) grey.push(Math.round((data[index]! + data[index + 1]! + data[index + 2]!) / 3));
    return grey;
  });
}

const differing = (a: readonly number[], b: readonly number[]) => a.filter((value, index) => Math.abs(value - (b[index] ?? 0)) > 24).length;

/**
 * The automatic look in the browser (issue 22): the `auto` layout shows the camera detection finds
 * on the frame, to be used or adjusted; the hook title card from the clip's suggestion; the
 * streamer's logo and brand; a caption preset in the preview and a render; the hook on review cards.
 */
describe('automatic look: found camera, hook, brand and logo, punch captions, review hook', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let clipRowId = '';
  let userId = '';
  let truth: Rect;
  let video: Buffer;
  /** What the page sent: preview bodies and detection calls, in order. */
  const previews: Record<string, unknown>[] = [];
  const detections: string[] = [];
  const logoUploads: string[] = [];

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-look-'));
    ({ video, truth } = await makeCameraClip(mediaDir));
    server = await startE2eApp({}, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
    page.on('request', (request: Request) => {
      const url = request.url();
      if (request.method() === 'POST' && url.includes('/preview')) previews.push(request.postDataJSON() as Record<string, unknown>);
      const detect = /studio\.(detect|detectStreamer)(?=[?,]|$)/.exec(url);
      if (detect) detections.push(detect[1]!);
      if (request.method() === 'PUT' && url.endsWith('/logo')) logoUploads.push(url);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  const db = () => server.app.deps.db;
  const toast = (text: string) => toastOn(page, text);
  const previewImage = () => page.getByTestId('preview-frame').locator('img');
  const region = (id: 'facecam' | 'gameplay') => page.getByTestId(`region-${id}`);
  const foundCamera = () => page.getByTestId('found-camera');
  const layoutRadio = (name: RegExp) => page.getByRole('radiogroup', { name: 'Layout' }).getByRole('radio', { name });
  const savedEdit = async () => (await db().selectFrom('clips').select('edit').where('id', '=', clipRowId).executeTakeFirstOrThrow()).edit;
  const lastPreview = () => previews.at(-1) ?? {};

  /** Waits for a loaded preview other than `before` (a blob URL) and returns its URL. */
  async function nextPreview(before: string | null): Promise<string> {
    await expect.poll(async () => (await previewImage().count()) > 0 && (await previewImage().getAttribute('src')) !== before).toBe(true);
    await expect.poll(() => previewImage().evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)).toBe(true);
    return (await previewImage().getAttribute('src')) ?? '';
  }

  /** Waits until the preview has caught up with the page (nothing left to ask) and returns its URL. */
  async function settledPreview(): Promise<string> {
    await expect.poll(() => page.getByText('Updating…').count()).toBe(0);
    return nextPreview(null);
  }

  async function saveAndWait(button = 'Save', message = 'Studio settings saved') {
    await waitForToastsGone(page);
    await page.getByRole('button', { name: button, exact: true }).click();
    await toast(message).waitFor();
  }

  /** Screenshots and axe in the four looks, then back to a laptop in light. */
  async function checkEachLook(name: string, ready: () => Promise<void>) {
    await waitForToastsGone(page);
    await inEachLook(page, async ({ width, theme }) => {
      await ready();
      // The full-page picture is taken from the top: the sticky header would otherwise sit mid-page.
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await horizontalOverflow(page), `${name} ${width} ${theme}`).toBeLessThanOrEqual(0);
      await screenshot(page, `${name}-${width}-${theme}`);
      expect(describeViolations(await axeViolations(page)), `${name} ${width} ${theme}`).toEqual([]);
    });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('opens the studio of a clip with the automatic layout and shows the camera detection finds', async () => {
    await register(page, USER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
    const streamerId = await seedStreamer(server.app.deps, userId, STREAMER, 'CamQueen');
    await db().updateTable('streamers').set({ layout: 'auto' }).where('id', '=', streamerId).execute();
    clipRowId = (await seedClip(server.app.deps, userId, { ...CLIP, streamer_name: STREAMER, hook_suggestion: SUGGESTION, video })).id;
    await db()
      .updateTable('clips')
      .set({ streamer_id: streamerId, duration: SOURCE.seconds, output_duration: SOURCE.seconds, subtitled: true, transcript: 'insane', transcript_words: JSON.stringify(WORDS), transcript_language: 'en' })
      .where('id', '=', clipRowId)
      .execute();

    await page.goto(`/app/clips/${CLIP.clip_id}/studio`);
    await heading(page, 'Studio').waitFor();
    expect(await layoutRadio(/^Automatic/).isChecked()).toBe(true);
    // Nothing drawn: the page asks what detection finds, once, and shows it dashed on the frame.
    await foundCamera().waitFor();
    expect(await foundCamera().textContent()).toMatch(/^Found camera \(\d+% sure\)$/);
    expect(detections).toEqual(['detect']);
    const label = (await foundCamera().getAttribute('aria-label')) ?? '';
    const shown = /left (\d+)%, top (\d+)%, (\d+)% wide, (\d+)% high/.exec(label)?.slice(1).map(Number) ?? [];
    // Where the camera really is, to a few percent.
    expect(shown.map((value, index) => Math.abs(value - 100 * [truth.x, truth.y, truth.w, truth.h][index]!)).every((off) => off <= 3), label).toBe(true);
    await page.getByTestId('camera-result').getByText(/Found camera/).waitFor();
    await page.getByText('A facecam rectangle you draw always wins over detection', { exact: false }).waitFor();
    // No region to drag yet: the found camera is only shown.
    expect(await region('facecam').count()).toBe(0);
    await settledPreview();
    expect(await previewImage().evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight])).toEqual([1080, 1920]);

    await checkEachLook('look-found-camera', () => foundCamera().waitFor());
  });

  it('uses the found rectangle: split with it as the facecam, in the preview; or adjusts it by hand', async () => {
    const found = (await foundCamera().getAttribute('aria-label'))!.replace(/^Found camera \(\d+% sure\): /, '');
    let shown = await settledPreview();
    await page.getByRole('button', { name: 'Use this rectangle' }).click();
    expect(await layoutRadio(/^Facecam \+ gameplay/).isChecked()).toBe(true);
    await expect.poll(() => region('facecam').getAttribute('aria-label')).toBe(`Facecam region: ${found}`);
    expect(await foundCamera().count()).toBe(0);
    shown = await nextPreview(shown);
    expect(lastPreview()).toMatchObject({ layout: 'split', facecam: expect.objectContaining({ x: expect.any(Number) }) });

    // Back to automatic: the same finding comes back without asking again; Adjust hands the rectangle over.
    await page.getByRole('button', { name: 'Reset to streamer default' }).first().click();
    await foundCamera().waitFor();
    expect(detections).toEqual(['detect']);
    await page.getByRole('button', { name: 'Adjust' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-region'))).toBe('facecam');
    const taken = (await region('facecam').getAttribute('aria-label'))!;
    expect(taken).toBe(`Facecam region: ${found}`);
    await page.keyboard.press('ArrowDown');
    const top = (label: string) => Number(/top (\d+)%/.exec(label)?.[1]);
    await expect.poll(async () => top((await region('facecam').getAttribute('aria-label'))!)).toBe(top(taken) + 1);
    await saveAndWait();
    const edit = await savedEdit();
    expect(edit.layout).toBe('split');
    expect(edit.facecam).not.toBeNull();
    expect(Math.abs(edit.facecam!.x - truth.x)).toBeLessThan(0.03);
    expect(Math.abs(edit.facecam!.y - (truth.y + 0.01))).toBeLessThan(0.03);
    await nextPreview(shown);
  });

  it('puts the suggested hook on the clip as its title card, edited, and saves it', async () => {
    await page.getByRole('tab', { name: 'Hook & brand' }).click();
    const hook = page.getByRole('region', { name: 'Hook' });
    const onOff = hook.getByRole('switch', { name: 'Title card on this clip' });
    // The streamer has hooks off: no card on this clip until it is asked for.
    expect(await onOff.isChecked()).toBe(false);
    await hook.getByTestId('hook-suggestion').getByText(SUGGESTION).waitFor();
    await hook.getByRole('button', { name: `Use the suggested hook: ${SUGGESTION}` }).click();
    expect(await onOff.isChecked()).toBe(true);
    const text = hook.getByRole('textbox', { name: 'Text', exact: true });
    expect(await text.inputValue()).toBe(SUGGESTION);
    expect(await hook.getByTestId('hook-suggestion').count()).toBe(0);

    await text.fill('Wait for it…');
    expect(await hook.getByTestId('hook-count').textContent()).toBe('12 / 80');
    expect(await text.getAttribute('maxlength')).toBe('80');
    const seconds = hook.getByRole('slider', { name: 'On screen for' });
    await seconds.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => seconds.inputValue()).toBe('4');
    // The preview is asked with the card (the server draws it).
    await expect.poll(() => lastPreview().hook).toEqual({ text: 'Wait for it…', seconds: 4 });
    // The suggestion is offered again now that the text differs from it.
    await hook.getByTestId('hook-suggestion').waitFor();
    await saveAndWait();
    expect((await savedEdit()).hook).toEqual({ text: 'Wait for it…', seconds: 4 });

    // Off on this clip: an empty line, no card.
    await onOff.click();
    expect(await text.count()).toBe(0);
    await expect.poll(() => lastPreview().hook).toEqual({ text: '', seconds: 4 });
    await onOff.click();
    expect(await text.inputValue()).toBe(SUGGESTION);
    await text.fill('Wait for it…');
    expect(await page.getByTestId('dirty-state').textContent()).toBe('All changes saved');

    // The brand in a clip's studio: the streamer's logo, changed in the streamer's studio.
    const brand = page.getByRole('region', { name: 'Brand' });
    await brand.getByTestId('streamer-logo').getByText('No logo yet').waitFor();
    await checkEachLook('look-hook-brand-clip', () => brand.getByTestId('streamer-logo').getByText('No logo yet').waitFor());
  });

  it("uploads the streamer's logo (refusing one over 2 MB before sending) and turns it on, in the streamer's studio", async () => {
    await page.getByRole('region', { name: 'Brand' }).getByRole('link', { name: 'CamQueen’s studio' }).click();
    await page.getByText('Defaults for').waitFor();
    expect(pathnameOf(page)).toBe(`/app/streamers/${STREAMER}/studio`);
    // The link opens the brand tab.
    await page.getByRole('tabpanel', { name: 'Hook & brand' }).waitFor();
    // The streamer's defaults look over its newest clips.
    await foundCamera().waitFor();
    expect(detections).toEqual(['detect', 'detectStreamer']);
    await page.getByRole('tab', { name: 'Layout' }).click();
    await page.getByText("Looked at the streamer's newest clip.").waitFor();
    await page.getByRole('tab', { name: 'Hook & brand' }).click();
    const hook = page.getByRole('region', { name: 'Hook' });
    await hook.getByText('Each clip shows its own suggested hook', { exact: false }).waitFor();

    const brand = page.getByRole('region', { name: 'Brand' });
    const file = brand.locator('input[type="file"]');
    expect(await file.getAttribute('accept')).toBe('image/png,image/jpeg');
    const tooBig = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(LOGO_MAX_BYTES)]);
    await file.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: tooBig });
    await expect.poll(() => brand.getByTestId('logo-problem').textContent()).toBe('A logo is at most 2 MB');
    expect(logoUploads).toEqual([]);

    await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: makeLogo(mediaDir) });
    await toast(`Logo saved for ${STREAMER}`).waitFor();
    const logo = brand.getByRole('img', { name: 'Logo of CamQueen' });
    await expect.poll(() => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(240);
    expect(logoUploads).toHaveLength(1);
    expect(await brand.getByTestId('logo-problem').count()).toBe(0);
    expect(await brand.getByRole('button', { name: 'Replace logo' }).count()).toBe(1);

    await brand.getByRole('switch', { name: 'Logo on the video' }).click();
    await brand.getByRole('radio', { name: 'Bottom left' }).check();
    const endCard = brand.getByRole('slider', { name: 'End card' });
    await endCard.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => endCard.inputValue()).toBe('0.5');
    await saveAndWait('Save streamer defaults', 'Streamer defaults saved');
    const streamer = await db().selectFrom('streamers').select(['brand', 'logo_type']).where('name', '=', STREAMER).executeTakeFirstOrThrow();
    expect(streamer).toMatchObject({ brand: { logo: true, position: 'bottom-left', opacity: 0.85, outro_seconds: 0.5 }, logo_type: 'image/png' });

    await checkEachLook('look-brand-streamer', () => logo.waitFor());
  });

  it('picks the punch captions, sees them in the preview, renders, and the new video plays', async () => {
    await page.goto(`/app/clips/${CLIP.clip_id}/studio`);
    await heading(page, 'Studio').waitFor();
    // The clip's brand shows the streamer's logo now.
    await page.getByRole('tab', { name: 'Hook & brand' }).click();
    await page.getByRole('region', { name: 'Brand' }).getByRole('img', { name: 'Logo of CamQueen' }).waitFor();

    await page.getByRole('tab', { name: 'Captions' }).click();
    const classic = await settledPreview();
    const before = await thumbprint(previewImage());
    await page.getByRole('radio', { name: 'Punch' }).check();
    await nextPreview(classic);
    await expect.poll(() => (lastPreview().caption_style as { preset?: string } | undefined)?.preset).toBe('punch');
    await settledPreview();
    // Bigger, upper-case, higher up and coloured: the caption is drawn differently.
    expect(differing(await thumbprint(previewImage()), before)).toBeGreaterThan(40);

    await waitForToastsGone(page);
    await page.getByRole('tab', { name: 'Trim & audio' }).click();
    const player = page.getByTestId('studio-video');
    const oldSource = await player.getAttribute('src');
    await page.getByRole('button', { name: 'Render again' }).click();
    await page.getByTestId('render-progress').waitFor();
    await toast('Rendered again: the new video is ready').waitFor({ timeout: RENDER_TIMEOUT_MS });
    expect(await page.getByTestId('render-failed').count()).toBe(0);
    expect(await savedEdit()).toMatchObject({ layout: 'split', caption_style: { preset: 'punch' }, hook: { text: 'Wait for it…', seconds: 4 } });

    await expect.poll(() => player.getAttribute('src')).not.toBe(oldSource);
    await expect.poll(() => player.evaluate((element) => (element as HTMLVideoElement).readyState)).toBeGreaterThanOrEqual(1);
    expect(await player.evaluate((element) => (element as HTMLVideoElement).videoWidth)).toBe(1080);
    await player.evaluate(async (element) => {
      const playing = element as HTMLVideoElement;
      playing.muted = true;
      playing.currentTime = 0;
      await playing.play();
    });
    await expect.poll(() => player.evaluate((element) => (element as HTMLVideoElement).currentTime)).toBeGreaterThan(0);
    await player.evaluate((element) => (element as HTMLVideoElement).pause());
  }, renderTestLimitMs(1));

  it("shows what a clip's last render found without asking, and looks again when told", async () => {
    const other = { clip_id: 'CamRendered', title: 'Rendered with auto' };
    const seeded = await seedClip(server.app.deps, userId, { ...other, streamer_name: STREAMER, video });
    const known = { facecam: { x: 0.1, y: 0.5, w: 0.3, h: 0.3 }, confidence: 0.9 };
    await db().updateTable('clips').set({ duration: SOURCE.seconds, output_duration: SOURCE.seconds, detected: JSON.stringify(known) }).where('id', '=', seeded.id).execute();
    // Its streamer's layout is automatic with nothing drawn: the clip's last render already looked.
    await page.goto(`/app/clips/${other.clip_id}/studio`);
    await heading(page, 'Studio').waitFor();
    await foundCamera().waitFor();
    expect(await foundCamera().textContent()).toBe('Found camera (90% sure)');
    expect(await foundCamera().getAttribute('aria-label')).toBe(`Found camera (90% sure): ${described(known.facecam)}`);
    await page.getByText('Found when this clip was last rendered.').waitFor();
    expect(detections.filter((name) => name === 'detect')).toHaveLength(1);

    await page.getByRole('button', { name: 'Look again' }).click();
    await expect.poll(() => page.getByText('Looked at this clip.').count()).toBe(1);
    expect(detections.filter((name) => name === 'detect')).toHaveLength(2);
    expect(await foundCamera().getAttribute('aria-label')).not.toContain(described(known.facecam));
  });

  it("edits the clip's title card on its review card", async () => {
    await db().updateTable('clips').set({ review_status: 'pending' }).where('id', '=', clipRowId).execute();
    await page.goto('/app/review');
    const card = page.locator(`[data-testid="review-clip"][data-clip-id="${CLIP.clip_id}"]`);
    const field = card.getByTestId('review-hook');
    const text = field.getByRole('textbox', { name: 'Title card' });
    expect(await text.inputValue()).toBe('Wait for it…');
    await field.getByText('Saved for this clip.').waitFor();
    expect(await field.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await text.fill('Best play of the week');
    await waitForToastsGone(page);
    await field.getByRole('button', { name: 'Save' }).click();
    await toast('Title card saved').waitFor();
    expect((await savedEdit()).hook).toEqual({ text: 'Best play of the week', seconds: 4 });
    // The rest of the clip's edit stays as it was.
    expect(await savedEdit()).toMatchObject({ layout: 'split', caption_style: { preset: 'punch' } });
    await expect.poll(() => field.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    await checkEachLook('look-review-hook', () => field.waitFor());
  });

  it('had no uncaught page errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
