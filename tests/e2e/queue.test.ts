import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { UploadRow } from '../../server/src/domains/publishing/uploads.ts';
import { queueUploads } from '../../server/src/domains/publishing/uploads.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { seedClip } from '../helpers/clips.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { goVia, horizontalOverflow, toast, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { accountRow } from './pages/settings.ts';

const USER = { username: 'scheduler', password: 'a long enough password' };
const ACCOUNT = { openId: 'open-slots', displayName: 'Slot Keeper', username: 'slotkeeper' };

describe('posting slots in Settings and the Queue screen', () => {
  let fake: FakeTikTok;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let accountId = '';
  let userId = '';

  beforeAll(async () => {
    fake = await startFakeTikTok({ pollsUntilDone: 0 });
    fake.addUser(ACCOUNT);
    server = await startE2eApp(fake.env, { worker: { concurrency: 2 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  const db = () => server.app.deps.db;
  const dialog = () => page.getByRole('dialog', { name: `Posting schedule: ${ACCOUNT.displayName}` });
  const day = (name: string) => dialog().getByRole('listitem', { name, exact: true });

  /** Pictures at 1366 and 390 px, light and dark: nothing spills sideways, no axe violations. */
  async function lookAt(name: string) {
    for (const [width, height] of [[1366, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        await screenshot(page, `${name}-${width}-${theme}`);
        expect(await horizontalOverflow(page), `${name} ${width} ${theme}`).toBe(0);
        expect(describeViolations(await axeViolations(page)), `${name} ${width} ${theme}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  async function addTime(dayName: string, time: string) {
    await day(dayName).getByLabel(`New time on ${dayName}`).fill(time);
    await day(dayName).getByRole('button', { name: `Add time on ${dayName}` }).click();
    await day(dayName).getByText(time, { exact: true }).waitFor();
  }

  it('edits an account’s weekly slots, zone, cap and gap in Settings', async () => {
    await register(page, USER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
    const tokens = fake.issueTokens(ACCOUNT.openId);
    const secret = server.app.deps.appSecret;
    accountId = (
      await db()
        .insertInto('accounts')
        .values({
          user_id: userId,
          open_id: ACCOUNT.openId,
          display_name: ACCOUNT.displayName,
          username: ACCOUNT.username,
          access_token_enc: encryptSecret(tokens.accessToken, secret),
          refresh_token_enc: encryptSecret(tokens.refreshToken, secret),
          access_expires_at: new Date(Date.now() + 86_400_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

    // The account came in behind the page's back (not through the connect popup, which refreshes
    // the lists): a reload drops what the dashboard already loaded without it.
    await page.reload();
    await goVia(page, 'Settings');
    await accountRow(page, ACCOUNT.displayName).getByRole('button', { name: `Posting schedule of ${ACCOUNT.displayName}` }).click();
    // Never saved: the browser's own zone (this browser runs in UTC).
    const zone = dialog().getByLabel('Time zone');
    expect(await zone.inputValue()).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
    await zone.fill('America/New_York');
    await addTime('Monday', '18:00');
    await addTime('Monday', '09:00');
    await addTime('Friday', '12:30');
    await addTime('Sunday', '20:15');
    // Sorted within the day.
    expect(await day('Monday').getByTestId('slot-time').allTextContents()).toEqual(['09:00', '18:00']);
    await day('Sunday').getByRole('button', { name: 'Remove Sunday 20:15' }).click();
    await dialog().getByLabel('Posts per day at most').fill('2');
    await dialog().getByLabel('Minutes between posts at least').fill('60');
    await lookAt('schedule-dialog');

    // A zone Intl does not know is refused in words.
    await zone.fill('Mars/Olympus');
    await dialog().getByRole('button', { name: 'Save schedule' }).click();
    await dialog().getByRole('alert').getByText('timezone must be an IANA time zone such as Europe/Berlin or America/New_York: "Mars/Olympus" is not one').waitFor();
    await zone.fill('America/New_York');
    await dialog().getByRole('button', { name: 'Save schedule' }).click();
    await toast(page, 'Posting schedule saved').waitFor();
    await dialog().waitFor({ state: 'detached' });

    const saved = await db().selectFrom('posting_schedules').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({
      timezone: 'America/New_York',
      slots: [{ day: 1, time: '09:00' }, { day: 1, time: '18:00' }, { day: 5, time: '12:30' }],
      daily_cap: 2,
      min_gap_minutes: 60,
    });

    // Opened again, it shows what was saved.
    await accountRow(page, ACCOUNT.displayName).getByRole('button', { name: `Posting schedule of ${ACCOUNT.displayName}` }).click();
    expect(await dialog().getByLabel('Time zone').inputValue()).toBe('America/New_York');
    expect(await day('Friday').getByTestId('slot-time').allTextContents()).toEqual(['12:30']);
    expect(await dialog().getByLabel('Posts per day at most').inputValue()).toBe('2');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('lists scheduled posts soonest first in the account’s zone; Cancel asks first, Post now posts', async () => {
    const queued: UploadRow[] = [];
    for (const title of ['First in line', 'Second in line']) {
      const clip = await seedClip(server.app.deps, userId, { clip_id: title.replace(/ /g, ''), title });
      queued.push(
        ...(await db().transaction().execute((trx) =>
          queueUploads(trx, { userId, clipRowId: clip.id, accountIds: [accountId], description: 'queued #a', mode: 'direct', privacyLevel: 'SELF_ONLY' }, { timing: 'next-slot' }),
        )),
      );
    }
    expect(queued.map((row) => row.status)).toEqual(['scheduled', 'scheduled']);

    await waitForToastsGone(page);
    await goVia(page, 'Queue');
    const items = page.getByTestId('queue-item');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.nth(0).getAttribute('aria-label')).toBe('First in line');
    const label = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .format(queued[0]!.scheduled_for!)
      .replace(',', '');
    expect(await items.nth(0).getByTestId('queue-time').textContent()).toMatch(new RegExp(`^(\\w{3} \\d+, )?${label} \\(in .+\\)$`));
    await items.nth(0).getByText('America/New_York').waitFor();
    await items.nth(0).getByText('Scheduled').waitFor();

    await lookAt('queue');

    // Cancel asks first; saying no keeps the post.
    await items.nth(0).getByRole('button', { name: 'Cancel: First in line' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this post?' });
    await confirm.getByText('“First in line” will not be posted to @slotkeeper.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await items.count()).toBe(2);
    await items.nth(0).getByRole('button', { name: 'Cancel: First in line' }).click();
    await confirm.getByRole('button', { name: 'Cancel post' }).click();
    await toast(page, 'The post was taken off the queue').waitFor();
    await expect.poll(() => items.count()).toBe(1);
    expect((await db().selectFrom('uploads').select('status').where('id', '=', queued[0]!.id).executeTakeFirstOrThrow()).status).toBe('canceled');

    // The page's clock under the test's hand, so how often the queue looks again is what is tested:
    // a post on its way is followed every 2 s (it used to wait for the 10 s poll, showing Queued
    // after the post went out).
    let queueLoads = 0;
    page.on('request', (request) => {
      if (decodeURIComponent(new URL(request.url()).pathname).includes('queue.list')) queueLoads += 1;
    });
    await page.clock.install();
    await page.reload();
    await items.nth(0).getByRole('button', { name: 'Post now: Second in line' }).waitFor();
    // TikTok holds the video's bytes: the post stays on its way until the test lets it through.
    fake.holdChunks();
    await items.nth(0).getByRole('button', { name: 'Post now: Second in line' }).click();
    await toast(page, 'The post goes to TikTok now').waitFor();
    await items.nth(0).getByText(/^(Queued|Uploading|Processing)/).waitFor();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    const loadsBefore = queueLoads;
    await page.clock.runFor(2_500);
    await expect.poll(() => queueLoads, { timeout: 10_000 }).toBeGreaterThan(loadsBefore);

    await page.clock.resume();
    await expect.poll(() => fake.heldChunks(), { timeout: 20_000 }).toBeGreaterThan(0);
    while (fake.heldChunks() > 0) fake.releaseChunk();
    await expect
      .poll(async () => (await db().selectFrom('uploads').select('status').where('id', '=', queued[1]!.id).executeTakeFirstOrThrow()).status)
      .toBe('published');
    // Gone from the queue without a reload; the empty queue names the settings section that exists.
    await page.getByText('Nothing waiting to post').waitFor();
    await page.getByText('Set slots in Settings › Connected accounts.', { exact: false }).waitFor();
    expect([...fake.posts.values()].filter((post) => post.openId === ACCOUNT.openId)).toHaveLength(1);
    expect(browser.pageErrors).toEqual([]);
  });
});
