import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createInvite } from '../../server/src/domains/invites/service.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, toast, waitForToastsGone, type Credentials } from './pages/app.ts';
import { fillRegistration, register } from './pages/auth.ts';
import { addStreamerDialog } from './pages/streamers.ts';

/*
 * A new user's dashboard: the checklist add a streamer → download clips → connect an account
 * (TikTok or YouTube) → post, ticked by what the server holds, with Add Streamer above the fold on
 * a phone, appearing without shifting the page, and put away for good.
 */

const PASSWORD = 'a long enough password';
const STREAMER = 'pixelqueen';
const SIZES = [
  { width: 1366, height: 900, user: { username: 'casey', password: PASSWORD } },
  { width: 390, height: 844, user: { username: 'jules', password: PASSWORD } },
] as const;

function checklist(page: Page): Locator {
  return page.getByRole('region', { name: 'Get started' });
}

function step(page: Page, name: string): Locator {
  return checklist(page).locator(`[data-step="${name}"]`);
}

declare global {
  interface Window {
    /** The page's cumulative layout shift (every 'layout-shift' entry not caused by input), since it loaded. */
    layoutShift?: number;
  }
}

interface LayoutShiftEntry extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

/** Sums every page's layout shifts from its first moment (a PerformanceObserver per page load). */
function observeLayoutShifts(): void {
  window.layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as LayoutShiftEntry[]) if (!entry.hadRecentInput) window.layoutShift = (window.layoutShift ?? 0) + entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * The dashboard opened afresh: the layout shift it accumulates until the checklist, the active
 * downloads and Quick Download are all there and the network has gone quiet.
 */
async function dashboardLoadShift(page: Page, count: RegExp): Promise<number> {
  await page.goto('/app');
  await checklist(page).getByTestId('first-run-count').filter({ hasText: count }).waitFor();
  await page.getByRole('region', { name: 'Quick Download' }).waitFor();
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => window.layoutShift ?? Number.NaN);
}

/** The control is on screen without scrolling: its whole box lies inside the first window height. */
async function expectAboveFold(page: Page, control: Locator, label: string): Promise<void> {
  await control.waitFor();
  // Measured until it settles: the control can be re-rendered for a moment (the list refreshing
  // behind a closing dialog), when it has no box. One below the fold still fails after the wait.
  const bottom = async () => {
    const box = await control.boundingBox();
    return box ? box.y + box.height : Number.POSITIVE_INFINITY;
  };
  await expect.poll(bottom, { message: label }).toBeLessThanOrEqual(page.viewportSize()!.height);
}

describe('the first-run checklist on the dashboard', () => {
  let fake: FakeTwitch;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    fake.addBroadcaster({ login: STREAMER, display_name: 'PixelQueen' });
    server = await startE2eApp(fake.env);
    browser = await launchBrowser(server.baseUrl, SIZES[0]);
    page = browser.page;
    await page.addInitScript(observeLayoutShifts);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  /** The first account registers freely; the next one with an invite from it. */
  async function registerNewUser(user: Credentials, first: boolean): Promise<void> {
    if (first) return register(page, user);
    const { db } = server.app.deps;
    const admin = await db.selectFrom('users').select('id').where('username', '=', SIZES[0].user.username).executeTakeFirstOrThrow();
    const invite = await createInvite(db, admin.id, 1);
    await page.context().clearCookies();
    await page.goto('/login');
    const form = await fillRegistration(page, user);
    await form.getByLabel('Invite code').fill(invite.code);
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/app');
  }

  /** The first account registers freely; the next ones with an invite from it. */
  async function registerInvited(user: Credentials): Promise<string> {
    await registerNewUser(user, false);
    return (await server.app.deps.db.selectFrom('users').select('id').where('username', '=', user.username).executeTakeFirstOrThrow()).id;
  }

  for (const [index, size] of SIZES.entries()) {
    it(`guides a new user at ${size.width} px: 0/4, a streamer ticks step 1, Dismiss puts it away`, async () => {
      const label = `${size.width} px`;
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: 'light' });
      await registerNewUser(size.user, index === 0);
      await heading(page, 'Dashboard').waitFor();
      await checklist(page).getByTestId('first-run-count').filter({ hasText: /^0\/4$/ }).waitFor();
      // Opened afresh, the checklist comes in without pushing what is below it down (CLS < 0.1).
      const shift = await dashboardLoadShift(page, /^0\/4$/);
      expect(shift, `layout shift of the dashboard at ${label}`).toBeLessThan(0.1);
      for (const name of ['streamer', 'clips', 'account', 'post']) expect(await step(page, name).getAttribute('data-done'), name).toBe('false');
      const addStreamer = checklist(page).getByRole('link', { name: 'Add Streamer' });
      await expectAboveFold(page, addStreamer, `dashboard at ${label}`);
      await waitForToastsGone(page);
      await screenshot(page, `first-run-${size.width}-light`);
      expect(describeViolations(await axeViolations(page)), `dashboard at ${label}, light`).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await screenshot(page, `first-run-${size.width}-dark`);
      expect(describeViolations(await axeViolations(page)), `dashboard at ${label}, dark`).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });

      // The Streamers screen of a user with none offers Add Streamer above the fold too.
      await page.goto('/app/streamers');
      await heading(page, 'Streamers').waitFor();
      await expectAboveFold(page, page.getByRole('button', { name: 'Add Streamer' }), `streamers at ${label}`);

      // The checklist's action opens the Add Streamer dialog there; the dashboard then ticks step 1.
      await page.goto('/app');
      await addStreamer.click();
      const dialog = addStreamerDialog(page);
      await dialog.waitFor();
      expect(new URL(page.url()).search).toBe('');
      await dialog.getByLabel('Streamer name').fill(STREAMER);
      await dialog.getByRole('button', { name: 'Add Streamer' }).click();
      await toast(page, 'Streamer added successfully').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await expectAboveFold(page, page.getByRole('button', { name: 'Add Streamer' }), `streamers with one at ${label}`);

      await page.goto('/app');
      await checklist(page).getByTestId('first-run-count').filter({ hasText: /^1\/4$/ }).waitFor();
      expect(await step(page, 'streamer').getAttribute('data-done')).toBe('true');
      expect(await step(page, 'streamer').getByRole('link').count()).toBe(0);
      expect(await step(page, 'clips').getByRole('link', { name: 'Quick Download' }).count()).toBe(1);

      // Put away, and still away on the next visit of this user.
      await checklist(page).getByRole('button', { name: 'Dismiss' }).click();
      await checklist(page).waitFor({ state: 'detached' });
      await page.goto('/app');
      await heading(page, 'Dashboard').waitFor();
      await page.getByRole('region', { name: 'Quick Download' }).getByRole('listitem', { name: 'PixelQueen' }).waitFor();
      expect(await checklist(page).count()).toBe(0);
      expect(browser.pageErrors).toEqual([]);
    }, 120_000);
  }

  it('counts a YouTube channel as the connected account, and finishes for a creator who posts to YouTube only', async () => {
    await page.setViewportSize(SIZES[0]);
    const userId = await registerInvited({ username: 'robin', password: PASSWORD });
    const { deps } = server.app;
    await seedStreamer(deps, userId, STREAMER, 'PixelQueen');
    const channel = await deps.db
      .insertInto('accounts')
      .values({
        user_id: userId,
        platform: 'youtube',
        open_id: 'UC-robin-channel',
        display_name: 'Robin Plays',
        username: 'robinplays',
        access_token_enc: encryptSecret('youtube-access', deps.appSecret),
        refresh_token_enc: encryptSecret('youtube-refresh', deps.appSecret),
        access_expires_at: new Date(Date.now() + 3_600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await page.goto('/app');
    await checklist(page).getByTestId('first-run-count').filter({ hasText: /^2\/4$/ }).waitFor();
    expect(await step(page, 'account').getAttribute('data-done')).toBe('true');
    expect(await step(page, 'clips').getAttribute('data-done')).toBe('false');

    // A clip posted to that channel: every step is done, and the checklist is put away for good.
    const clip = await seedClip(deps, userId, { clip_id: 'RobinClip', title: 'Robin’s first short', streamer_name: STREAMER });
    await deps.db
      .insertInto('uploads')
      .values({ user_id: userId, clip_row_id: clip.id, account_id: channel.id, platform: 'youtube', account_name: 'Robin Plays', account_open_id: 'UC-robin-channel', mode: 'direct', description: 'first #short', status: 'published' })
      .execute();
    await page.goto('/app');
    await heading(page, 'Dashboard').waitFor();
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), `first-run-dismissed:${userId}`)).not.toBeNull();
    await page.getByRole('region', { name: 'Quick Download' }).waitFor();
    expect(await checklist(page).count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
  }, 60_000);
});
