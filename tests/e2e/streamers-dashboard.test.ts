import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor } from '../helpers/app.ts';
import { launchBrowser, pathnameOf, screenshot, screenshotViewport, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, horizontalOverflow, navLink, toast as toastOn } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { clipGrid } from './pages/clips.ts';
import { downloadsRegion, quickTile as quickTileOn, recentRunsToggle, runEntry, showRecentRuns, waitForStatus } from './pages/dashboard.ts';
import { addStreamerDialog, editStreamerDialog, streamerCard, streamerList } from './pages/streamers.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const USER = { username: 'dana', password: 'a long enough password' };
const STREAMER = 'pixelqueen';
/** Twitch's display name, which titles the streamer everywhere since it only changes the case. */
const TITLE = 'PixelQueen';
const OTHER = 'nightowl';
const PHONE = { width: 390, height: 844 };
/** Real downloads and ffmpeg renders of two 3 s clips; generous for a loaded machine. */
/** A run of two clips. */
const RUN_TIMEOUT_MS = renderLimitMs(2);

describe('streamers and the dashboard: add, download, busy rules, edit, delete', () => {
  let fake: FakeTwitch;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    fake.addBroadcaster({ login: STREAMER, display_name: TITLE });
    for (const [index, title] of ['ace clutch', 'triple kill', 'funny fail', 'chat spam'].entries()) {
      fake.addClip({ broadcaster: STREAMER, title, view_count: 900 - index * 100 });
    }
    fake.addBroadcaster({ login: OTHER });
    fake.addClip({ broadcaster: OTHER, title: 'late night', view_count: 10 });
    server = await startE2eApp({ ...fake.env, WORKER_CONCURRENCY: '2' }, { worker: { concurrency: 2 } });
    browser = await launchBrowser(server.baseUrl);
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

  const nav = (name: string) => navLink(page, name);
  const addDialog = () => addStreamerDialog(page);
  const card = (title: string) => streamerCard(page, title);
  const downloads = () => downloadsRegion(page);
  const entry = (name: string) => runEntry(page, name);
  const quickTile = (name: string) => quickTileOn(page, name);
  const toast = (text: string) => toastOn(page, text);

  /** The input of a batched tRPC mutation request (one call per batch here). */
  function startInput(request: Request): unknown {
    return (request.postDataJSON() as Record<string, unknown>)['0'];
  }

  it('signs up the first user and shows the empty dashboard', async () => {
    await register(page, USER);
    await heading(page, 'Dashboard').waitFor();
    await page.getByText('No active downloads').waitFor();
    await page.getByText('No streamers yet').waitFor();
    expect(await page.getByRole('link', { name: 'Add Streamers' }).getAttribute('href')).toBe('/app/streamers');
    await screenshot(page, 'dashboard-empty');
  });

  it('adds a streamer through the dialog: defaults, validation and the server refusing', async () => {
    await page.getByRole('link', { name: 'Add Streamers' }).click();
    await heading(page, 'Streamers').waitFor();
    expect(pathnameOf(page)).toBe('/app/streamers');
    await page.getByText('No streamers yet').waitFor();
    await screenshot(page, 'streamers-empty');

    await page.getByRole('button', { name: 'Add Streamer' }).click();
    const dialog = addDialog();
    await dialog.waitFor();
    // The spec's defaults: limit 10, vertical (the automatic layout), auto-detect, no schedule, no automation.
    expect(await dialog.getByLabel('Streamer name').inputValue()).toBe('');
    expect(await dialog.getByLabel('Clip limit').inputValue()).toBe('10');
    expect(await dialog.getByRole('radio', { name: /^Vertical/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('radio', { name: /^Horizontal/ }).isChecked()).toBe(false);
    expect(await dialog.getByRole('radio', { name: /^Automatic/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('combobox', { name: 'Language' }).textContent()).toContain('Auto-detect');
    for (const name of ['Download on a schedule', 'Auto subtitles', 'Auto publish']) {
      expect(await dialog.getByRole('switch', { name }).getAttribute('aria-checked')).toBe('false');
    }
    await screenshotViewport(page, 'streamers-dialog-add');

    // The form checks itself before asking the server.
    await dialog.getByRole('button', { name: 'Add Streamer' }).click();
    await dialog.getByText('Streamer name is required').waitFor();
    await dialog.getByLabel('Streamer name').fill('   ');
    await dialog.getByLabel('Clip limit').fill('0');
    await dialog.getByRole('switch', { name: 'Download on a schedule' }).click();
    expect(await dialog.getByLabel('Schedule interval').inputValue()).toBe('4');
    expect(await dialog.getByRole('combobox', { name: 'Schedule unit' }).textContent()).toContain('Hours');
    await dialog.getByLabel('Schedule interval').fill('0');
    await dialog.getByRole('button', { name: 'Add Streamer' }).click();
    await dialog.getByText('Streamer name is required').waitFor();
    await dialog.getByText('Clip limit must be a whole number from 1 to 100').waitFor();
    await dialog.getByText('Schedule interval must be a whole number of at least 1').waitFor();
    expect(await dialog.getByLabel('Clip limit').getAttribute('aria-invalid')).toBe('true');
    await screenshotViewport(page, 'streamers-dialog-errors');

    // Fixed: limit 2, no schedule. The server then refuses a login Twitch does not know, inline.
    await dialog.getByLabel('Clip limit').fill('2');
    await dialog.getByRole('switch', { name: 'Download on a schedule' }).click();
    await dialog.getByLabel('Streamer name').fill('nosuchuser');
    await dialog.getByRole('button', { name: 'Add Streamer' }).click();
    await dialog.getByText('Twitch user nosuchuser does not exist').waitFor();
    await toast('Error: Twitch user nosuchuser does not exist').waitFor();
    expect(await dialog.getByText('Clip limit must be', { exact: false }).count()).toBe(0);

    await dialog.getByLabel('Streamer name').fill(`  ${STREAMER} `);
    await dialog.getByRole('button', { name: 'Add Streamer' }).click();
    await toast('Streamer added successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const added = card(TITLE);
    await added.waitFor();
    await added.getByText('Auto-detect').waitFor();
    await added.getByText('No schedule').waitFor();
    await added.getByText('Vertical · Automatic').waitFor();
    await added.getByText('2 clips').waitFor();
    await added.getByText('No linked accounts').waitFor();
    expect(await added.getByRole('button', { name: `Manage accounts of ${TITLE}` }).isEnabled()).toBe(true);

    // The same name again (in another case) is refused by the server, next to the name.
    await page.getByRole('button', { name: 'Add Streamer' }).click();
    await addDialog().getByLabel('Streamer name').fill('PixelQueen');
    await addDialog().getByRole('button', { name: 'Add Streamer' }).click();
    await addDialog().getByText('Streamer PixelQueen already exists').waitFor();
    await addDialog().getByRole('button', { name: 'Cancel' }).click();
    await addDialog().waitFor({ state: 'detached' });

    // A horizontal one: the layout choice does not apply to it.
    await page.getByRole('button', { name: 'Add Streamer' }).click();
    await addDialog().getByLabel('Streamer name').fill(OTHER);
    await addDialog().getByRole('radio', { name: /^Horizontal/ }).check();
    expect(await addDialog().getByRole('radio', { name: /^Crop/ }).isDisabled()).toBe(true);
    await addDialog().getByText('Only used for vertical videos.').waitFor();
    await addDialog().getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'German' }).click();
    await addDialog().getByRole('switch', { name: 'Auto publish' }).click();
    await addDialog().getByRole('button', { name: 'Add Streamer' }).click();
    await toast('Streamer added successfully').first().waitFor();
    const other = card(OTHER);
    await other.waitFor();
    await other.getByText('Horizontal').waitFor();
    await other.getByText('German').waitFor();
    expect(await streamerList(page).getByTestId('streamer-card').count()).toBe(2);
    await screenshot(page, 'streamers-cards');
  });

  it('downloads 2 clips from the dashboard and shows the run going to completed', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
    await nav('Dashboard').click();
    await heading(page, 'Dashboard').waitFor();
    const tile = quickTile(TITLE);
    await tile.getByText('2 clips').waitFor();
    await tile.getByText('Vertical').waitFor();
    await tile.getByText('No schedule').waitFor();
    await quickTile(OTHER).getByText('Horizontal').waitFor();
    await screenshot(page, 'dashboard-streamers');

    // The concurrency preference (app-settings) goes with the start; the dashboard sends `limit`.
    await page.evaluate(() => window.localStorage.setItem('app-settings', JSON.stringify({ concurrency: 1 })));
    const startRequest = page.waitForRequest((request) => request.url().includes('downloads.start'));
    await tile.getByRole('button', { name: `Download clips for ${STREAMER}` }).click();
    expect(startInput(await startRequest)).toEqual({ name: STREAMER, limit: 2, vertical: true, concurrency: 1 });
    await toast(`Started downloading clips for ${STREAMER}`).waitFor();
    const run = entry(TITLE);
    await waitForStatus(run, 'Downloading');
    await run.getByRole('progressbar', { name: `Download progress for ${STREAMER}` }).waitFor();
    expect(await tile.getByRole('button', { name: `Download clips for ${STREAMER}` }).isDisabled()).toBe(true);
    await screenshot(page, 'dashboard-downloading');

    const saved = await server.app.deps.db.selectFrom('download_runs').select(['clip_limit', 'concurrency']).executeTakeFirstOrThrow();
    expect(saved).toEqual({ clip_limit: 2, concurrency: 1 });

    // The "done" moment: a toast with the count of new clips and a link to them.
    const done = toast(`2 new clips from ${STREAMER}`);
    await done.waitFor({ timeout: RUN_TIMEOUT_MS });
    await done.getByRole('link', { name: 'View clips' }).click();
    await heading(page, 'Clips').waitFor();
    expect(new URL(page.url()).search).toBe(`?streamer=${STREAMER}`);
    expect(await page.getByRole('combobox', { name: 'Filter by streamer' }).textContent()).toBe(TITLE);
    await expect.poll(() => clipGrid(page).getByRole('listitem').count()).toBe(2);
    await nav('Dashboard').click();
    await heading(page, 'Dashboard').waitFor();

    // An ended run waits under Recent runs, closed, until asked for; it tells how long ago it ended.
    const recent = recentRunsToggle(page);
    await recent.filter({ hasText: 'Recent runs (1)' }).waitFor();
    expect(await recent.getAttribute('aria-expanded')).toBe('false');
    expect(await run.count()).toBe(0);
    await downloads().getByText('Nothing is downloading right now.').waitFor();
    await screenshot(page, 'dashboard-recent-closed');
    await recent.click();
    expect(await recent.getAttribute('aria-expanded')).toBe('true');
    await waitForStatus(run, 'Completed');
    await run.getByText('2 of 2 clips downloaded').waitFor();
    expect(await run.getByTestId('run-age').textContent()).toMatch(/^Ended (just now|\d+ min ago)$/);
    await downloads().getByRole('button', { name: 'Refresh Status' }).click();
    await waitForStatus(run, 'Completed');
    expect(await run.getByRole('progressbar').count()).toBe(0);
    expect(await run.getByText(/^Completed:/).count()).toBe(1);
    expect(await run.getByRole('button', { name: `Start download for ${STREAMER}` }).isEnabled()).toBe(true);
    await tile.getByRole('button', { name: `Download clips for ${STREAMER}` }).waitFor();
    expect(await tile.getByRole('button', { name: `Download clips for ${STREAMER}` }).isEnabled()).toBe(true);
    await screenshot(page, 'dashboard-completed');
  });

  it('shows the server refusing a second start (a race the page could not see) as info', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
    // The page's status stays as it is (polls fail) while the run starts elsewhere, e.g. another tab.
    const isStatus = (url: URL) => url.pathname.includes('downloads.status');
    await page.route(isStatus, (route) => route.abort());
    const user = await server.app.deps.db.selectFrom('users').select(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    await callerFor(server.app.deps, { user }).api.downloads.start({ name: OTHER });

    const answer = page.waitForResponse((response) => response.url().includes('downloads.start'));
    await quickTile(OTHER).getByRole('button', { name: `Download clips for ${OTHER}` }).click();
    expect((await answer).status()).toBe(409);
    await page.locator('[data-sonner-toast][data-type="info"]').filter({ hasText: `Already downloading clips for ${OTHER}` }).waitFor();
    await page.unroute(isStatus);
    // Its one clip is remuxed (horizontal); the run must be over before the streamer can go.
    await showRecentRuns(page);
    await waitForStatus(entry(OTHER), 'Completed', RUN_TIMEOUT_MS);
    await entry(OTHER).getByText('1 of 1 clip downloaded').waitFor();
  });

  it('blocks editing and deleting a busy streamer, and stops its run', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
    // The CDN stalls: the run stays busy (each stalled transfer waits 30 s) until it is stopped.
    fake.failures.next('cdn', 'stalled_transfer', { times: 3 });
    await nav('Streamers').click();
    const streamerCard = card(TITLE);
    await streamerCard.waitFor();
    // The streamers screen sends clip_limit instead of limit (spec section 7).
    const startRequest = page.waitForRequest((request) => request.url().includes('downloads.start'));
    await streamerCard.getByRole('button', { name: `Download Clips for ${STREAMER}` }).click();
    expect(startInput(await startRequest)).toEqual({ name: STREAMER, clip_limit: 2, vertical: true, concurrency: 1 });
    await toast(`Started downloading clips for ${STREAMER}`).waitFor();
    await waitForStatus(streamerCard, 'Downloading');
    expect(await streamerCard.getByRole('button', { name: `Download Clips for ${STREAMER}` }).isDisabled()).toBe(true);

    await streamerCard.getByRole('button', { name: `Edit ${STREAMER}` }).click();
    await toast(`Cannot edit ${STREAMER} while clips are being downloaded`).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await streamerCard.getByRole('button', { name: `Delete ${STREAMER}` }).click();
    await toast(`Cannot delete ${STREAMER} while clips are being downloaded`).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await screenshotViewport(page, 'streamers-busy');

    await nav('Dashboard').click();
    const run = entry(TITLE);
    await waitForStatus(run, 'Downloading');
    // The clips in flight with their stage, e.g. "Downloading 'funny fail' — 50%".
    await run.getByTestId('clip-progress').first().waitFor();
    expect(await run.getByTestId('clip-progress').first().textContent()).toMatch(/^Downloading '(funny fail|chat spam)' — \d+%$/);
    expect(await quickTile(TITLE).getByRole('button', { name: `Download clips for ${STREAMER}` }).isDisabled()).toBe(true);
    await screenshot(page, 'dashboard-progress');

    await run.getByRole('button', { name: `Stop download for ${STREAMER}` }).click();
    await toast(`Stopping download for ${STREAMER}`).waitFor();
    await showRecentRuns(page);
    await waitForStatus(run, 'Stopped', 30_000);
    // The two clips left were both stalled: none was finished when the run stopped.
    await run.getByText('0 of 2 clips downloaded').waitFor();
    await screenshot(page, 'dashboard-stopped');
  });

  it('edits a streamer: the name is read-only and a schedule shows as Every 4 hours', async () => {
    await nav('Streamers').click();
    const streamerCard = card(TITLE);
    await streamerCard.getByRole('button', { name: `Edit ${STREAMER}` }).click();
    const dialog = editStreamerDialog(page);
    await dialog.waitFor();
    const name = dialog.getByLabel('Streamer name');
    expect(await name.inputValue()).toBe(STREAMER);
    expect(await name.getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByLabel('Clip limit').inputValue()).toBe('2');
    await dialog.getByRole('switch', { name: 'Download on a schedule' }).click();
    expect(await dialog.getByLabel('Schedule interval').inputValue()).toBe('4');
    await dialog.getByRole('switch', { name: 'Auto subtitles' }).click();
    await screenshotViewport(page, 'streamers-dialog-edit');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await toast('Streamer updated successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await streamerCard.getByTestId('streamer-schedule').filter({ hasText: 'Every 4 hours' }).waitFor();
    await streamerCard.getByText(/^Next: /).waitFor();
    // Auto subtitles now on: its dot is drawn in a colour (a misspelt class left it transparent).
    const dot = streamerCard.locator('dd', { hasText: /^On$/ }).first().getByTestId('on-off-dot');
    expect(await dot.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toMatch(/^(rgba\(0, 0, 0, 0\)|transparent)$/);
  });

  it('deletes a streamer after the confirmation', async () => {
    await card(OTHER).getByRole('button', { name: `Delete ${OTHER}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete streamer' });
    await confirm.getByText(`Are you sure you want to delete ${OTHER}?`).waitFor();
    await screenshotViewport(page, 'streamers-dialog-delete');
    // Cancel keeps it; Delete removes it.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await card(OTHER).getByRole('button', { name: `Delete ${OTHER}` }).click();
    await page.getByRole('alertdialog', { name: 'Delete streamer' }).getByRole('button', { name: 'Delete' }).click();
    await toast(`Streamer ${OTHER} deleted successfully`).waitFor();
    await card(OTHER).waitFor({ state: 'detached' });
    expect(await streamerList(page).getByTestId('streamer-card').count()).toBe(1);
    await screenshot(page, 'streamers-after-delete');
  });

  it('fits a 390 px wide phone, with skeletons while the streamers load', async () => {
    await page.setViewportSize(PHONE);
    const overflow = () => horizontalOverflow(page);

    // Held back until the loading state has been seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const isStreamerList = (url: URL) => url.pathname.includes('streamers.list');
    await page.route(
      isStreamerList,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto('/app/streamers');
    await page.getByTestId('streamers-loading').waitFor();
    await screenshot(page, 'streamers-loading-mobile');
    release();
    await card(TITLE).waitFor();
    await page.unroute(isStreamerList);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'streamers-mobile');

    await page.getByRole('button', { name: 'Add Streamer' }).click();
    await addDialog().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshotViewport(page, 'streamers-dialog-mobile');
    await addDialog().getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/app');
    await showRecentRuns(page);
    await entry(TITLE).waitFor();
    await quickTile(TITLE).getByText('Every 4 hours').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'dashboard-mobile');
    expect(browser.pageErrors).toEqual([]);
  });
});
