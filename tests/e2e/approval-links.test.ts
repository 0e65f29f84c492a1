import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { upsertTikTokAccount as upsertAccount } from '../../server/src/domains/publishing/platforms/tiktok.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, makeClipMedia, screenshot, screenshotViewport, startE2eApp, type ClipMedia, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, horizontalOverflow, pageSettled, toast, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';

const OWNER = { username: 'clipmanager', password: 'a long enough password' };
const ERIN = { openId: 'open-erin', displayName: 'Erin Creates', username: 'erin.creates', stitchDisabled: false };
const BEST = 'Ace in overtime #pixelqueen #ace #valorant';
const NOTE = 'Not this one: the audio clips at the end.';

/*
 * Approval links end to end: the clip manager shares clips from the review inbox (1366 px), the
 * streamer opens the links on a phone (390 px, light and dark) with no account and answers once.
 */
describe('approval links: shared from the inbox, answered on a phone without an account', () => {
  let fake: FakeTikTok;
  let server: E2eApp;
  let owner: E2eBrowser;
  let phone: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let media: ClipMedia;
  let userId = '';
  let streamerId = '';
  const links = new Map<string, string>();

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-approval-'));
    media = makeClipMedia(mediaDir, 360, 640);
    fake = await startFakeTikTok({ pollsUntilDone: 0 });
    fake.addUser(ERIN);
    // An approval by link queues posts as the inbox does: the worker uploads them to the fake TikTok.
    server = await startE2eApp({ ...fake.env }, { worker: { concurrency: 1 } });
    owner = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = owner.page;
    phone = await launchBrowser(server.baseUrl, { width: 390, height: 844 });
  });
  afterAll(async () => {
    await phone?.close();
    await owner?.close();
    await server?.close();
    await fake?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  const db = () => server.app.deps.db;
  const card = (title: string) => page.getByTestId('review-clip').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  const reviewStatusOf = async (clipId: string) => (await db().selectFrom('clips').select('review_status').where('clip_id', '=', clipId).executeTakeFirstOrThrow()).review_status;

  async function pendingClip(clipId: string, title: string) {
    const { id, dir } = await seedClip(server.app.deps, userId, { clip_id: clipId, title, streamer_name: 'pixelqueen', video: media.video, descriptions: [{ description: BEST, rank: 0.9 }] });
    await writeFile(path.join(dir, CLIP_FILES.thumbnail), media.thumbnail);
    await db().updateTable('clips').set({ streamer_id: streamerId, review_status: 'pending', duration: 2 }).where('id', '=', id).execute();
  }

  /** The phone's page in light and dark at 390 px: nothing spills sideways, axe finds nothing, a picture of each. */
  async function checkPhoneLooks(name: string) {
    const phonePage = phone.page;
    for (const theme of ['light', 'dark'] as const) {
      await phonePage.emulateMedia({ colorScheme: theme });
      await expect.poll(() => phonePage.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
      await pageSettled(phonePage);
      expect(await horizontalOverflow(phonePage), `${name} ${theme}`).toBeLessThanOrEqual(0);
      // The sticky header would otherwise sit where the page was scrolled to, mid-picture.
      await phonePage.evaluate(() => window.scrollTo({ top: 0 }));
      await screenshot(phonePage, `approval-${name}-390-${theme}`);
      expect(describeViolations(await axeViolations(phonePage)), `${name} at 390 ${theme}`).toEqual([]);
    }
    await phonePage.emulateMedia({ colorScheme: 'light' });
  }

  /** Shares a clip from its card and returns the link the dialog shows. */
  async function shareFromInbox(title: string, pictureName?: string): Promise<string> {
    await card(title).getByRole('button', { name: 'Share for approval' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share for approval' });
    const url = await dialog.getByRole('textbox', { name: 'Approval link' }).inputValue();
    expect(url).toMatch(new RegExp(`^${server.baseUrl}/approve/[A-Za-z0-9_-]{43}$`));
    await dialog.getByTestId('share-link-expiry').getByText(/works until/).waitFor();
    if (pictureName) {
      await dialog.getByRole('button', { name: 'Copy' }).click();
      await toast(page, 'Approval link copied to clipboard!').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await waitForToastsGone(page);
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        await screenshotViewport(page, `${pictureName}-1366-${theme}`);
        expect(describeViolations(await axeViolations(page)), `the share dialog at 1366 ${theme}`).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card(title).getByTestId('approval-link-status').getByText(/Approval link sent/).waitFor();
    return url;
  }

  it('shares clips from the review inbox: the link with a copy button and its expiry, and the clip says a link is out', async () => {
    await register(page, OWNER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', OWNER.username).executeTakeFirstOrThrow()).id;
    streamerId = await seedStreamer(server.app.deps, userId, 'pixelqueen', 'PixelQueen');
    await db().updateTable('streamers').set({ auto_publish: true, publish_mode: 'review' }).where('id', '=', streamerId).execute();
    const tokens = fake.issueTokens(ERIN.openId);
    const account = await upsertAccount(db(), server.app.deps.appSecret, {
      userId,
      via: 'owner',
      tokens: { ...tokens, expiresIn: 86_400, refreshExpiresIn: 31_536_000, openId: ERIN.openId, scope: 'user.info.basic,user.info.profile,video.publish,video.upload' },
      info: { openId: ERIN.openId, unionId: null, avatarUrl: null, displayName: ERIN.displayName, username: ERIN.username },
    });
    await db().insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: account.id }).execute();
    await db().insertInto('account_post_settings').values({ account_id: account.id, privacy_level: 'SELF_ONLY' }).execute();
    await pendingClip('AceClip', 'Ace in overtime');
    await pendingClip('MehClip', 'Quiet moment');
    await pendingClip('OldClip', 'Old news');

    await page.goto('/app/review');
    await heading(page, 'Review').waitFor();
    await card('Ace in overtime').getByRole('checkbox', { name: '@erin.creates' }).waitFor();
    links.set('AceClip', await shareFromInbox('Ace in overtime', 'approval-share-dialog'));
    links.set('MehClip', await shareFromInbox('Quiet moment'));
    links.set('OldClip', await shareFromInbox('Old news'));
    expect(await db().selectFrom('approval_links').select('id').execute()).toHaveLength(3);
    await waitForToastsGone(page);
    await pageSettled(page);
    await screenshot(page, 'approval-inbox-links-out-1366-light');
    expect(describeViolations(await axeViolations(page)), 'the inbox with links out').toEqual([]);
  }, 120_000);

  it('the streamer approves on a phone: the clip is posted as if approved in the inbox', async () => {
    const phonePage = phone.page;
    await phonePage.goto(links.get('AceClip')!);
    await heading(phonePage, 'Approve this clip?').waitFor();
    await phonePage.getByText(BEST).waitFor();
    await phonePage.getByRole('listitem').filter({ hasText: '@erin.creates' }).getByText('TikTok').waitFor();
    // The video plays without a session: the link alone opens it.
    const video = phonePage.getByLabel('Video: Ace in overtime');
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(0);
    await checkPhoneLooks('open');

    await phonePage.getByRole('button', { name: 'Approve', exact: true }).click();
    await heading(phonePage, 'Approved. Thank you!').waitFor();
    await phonePage.getByTestId('approval-answer').getByText(/was approved/).waitFor();
    expect(await phonePage.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    await checkPhoneLooks('approved');
    expect(await reviewStatusOf('AceClip')).toBe('approved');
    await expect.poll(() => [...fake.posts.values()].map((post) => ({ title: post.postInfo?.title, privacy: post.postInfo?.privacy_level }))).toEqual([{ title: BEST, privacy: 'SELF_ONLY' }]);
    const logs = await db().selectFrom('logs').select('message').where('user_id', '=', userId).execute();
    expect(logs.map((row) => row.message)).toContain('Approved by link: "Ace in overtime" queued for 1 account');
  }, 120_000);

  it('the streamer rejects another with a note', async () => {
    const phonePage = phone.page;
    await phonePage.goto(links.get('MehClip')!);
    await heading(phonePage, 'Approve this clip?').waitFor();
    await phonePage.getByRole('button', { name: 'Reject', exact: true }).click();
    const noteBox = phonePage.getByRole('textbox', { name: 'Note for the owner (optional)' });
    await expect.poll(() => noteBox.evaluate((element) => element === document.activeElement)).toBe(true);
    await noteBox.fill(NOTE);
    await checkPhoneLooks('reject-note');
    await phonePage.getByRole('button', { name: 'Reject clip' }).click();
    await heading(phonePage, 'Rejected. Thank you!').waitFor();
    await phonePage.getByText(NOTE).waitFor();
    await expect.poll(() => phonePage.evaluate(() => window.scrollY)).toBe(0);
    await checkPhoneLooks('rejected');
    expect(await reviewStatusOf('MehClip')).toBe('rejected');
  });

  it('a used link says so with what was answered and no buttons; a tampered and an expired one say so plainly', async () => {
    const phonePage = phone.page;
    await phonePage.goto(links.get('AceClip')!);
    await heading(phonePage, 'This link has already been used').waitFor();
    await phonePage.getByTestId('approval-answer').getByText(/“Ace in overtime” was approved on/).waitFor();
    expect(await phonePage.getByRole('button').filter({ hasText: /Approve|Reject/ }).count()).toBe(0);
    await checkPhoneLooks('used');

    const ace = links.get('AceClip')!;
    const changed = `${ace.slice(0, -5)}${ace.slice(-5, -4) === 'A' ? 'B' : 'A'}${ace.slice(-4)}`;
    await phonePage.goto(changed);
    await heading(phonePage, 'This link is not valid').waitFor();
    await phonePage.getByText('Check that it was copied whole, or ask for a new one.').waitFor();
    await checkPhoneLooks('invalid');

    await db()
      .updateTable('approval_links')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('clip_row_id', '=', (eb) => eb.selectFrom('clips').select('id').where('clip_id', '=', 'OldClip'))
      .execute();
    await phonePage.goto(links.get('OldClip')!);
    await heading(phonePage, 'This link has expired').waitFor();
    await checkPhoneLooks('expired');
    expect(await reviewStatusOf('OldClip')).toBe('pending');
    expect(phone.pageErrors).toEqual([]);
  }, 120_000);

  it('the inbox shows the answers, and that the other clip’s link expired', async () => {
    await page.reload();
    await heading(page, 'Review').waitFor();
    const answers = page.getByTestId('link-answers');
    await answers.getByTestId('link-answer').filter({ hasText: 'Ace in overtime' }).getByText('Approved by link').waitFor();
    await answers.getByTestId('link-answer').filter({ hasText: 'Quiet moment' }).getByText(NOTE).waitFor();
    // Only the expired one still waits here.
    await expect.poll(() => page.getByTestId('review-clip').count()).toBe(1);
    await card('Old news').getByTestId('approval-link-status').getByText(/expired on/).waitFor();
    await pageSettled(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `approval-inbox-answers-1366-${theme}`);
      expect(describeViolations(await axeViolations(page)), `the inbox with answers at 1366 ${theme}`).toEqual([]);
    }
    expect(owner.pageErrors).toEqual([]);
  });
});
