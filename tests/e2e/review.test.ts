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
import { launchBrowser, makeClipMedia, screenshot, startE2eApp, type ClipMedia, type E2eApp, type E2eBrowser } from './harness.ts';
import { chooseOption, heading, horizontalOverflow, inEachLook, pageSettled, toast, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { editStreamerDialog, streamerCard } from './pages/streamers.ts';

const USER = { username: 'reviewer', password: 'a long enough password' };
const ERIN = { openId: 'open-erin', displayName: 'Erin Creates', username: 'erin.creates', stitchDisabled: false };
const BEST = 'Ace in overtime #pixelqueen #ace #valorant';
const SECOND = 'What a clutch #gaming #fps #clip';

describe('the review inbox and the selection settings', () => {
  let fake: FakeTikTok;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let media: ClipMedia;
  let userId = '';
  let streamerId = '';

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-review-'));
    media = makeClipMedia(mediaDir, 360, 640);
    fake = await startFakeTikTok({ pollsUntilDone: 0 });
    fake.addUser(ERIN);
    // Approved posts are jobs: the worker uploads them to the fake TikTok.
    server = await startE2eApp({ ...fake.env }, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  const db = () => server.app.deps.db;
  const card = (title: string) => page.getByTestId('review-clip').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  const badge = () => page.getByRole('navigation', { name: 'Main' }).getByTestId('review-badge');
  const reviewStatusOf = async (clipId: string) => (await db().selectFrom('clips').select('review_status').where('clip_id', '=', clipId).executeTakeFirstOrThrow()).review_status;

  /** A clip a review-mode run saved: pending, tied to the streamer whose accounts it goes to. */
  async function pendingClip(clipId: string, title: string) {
    const { id, dir } = await seedClip(server.app.deps, userId, {
      clip_id: clipId,
      title,
      streamer_name: 'pixelqueen',
      video: media.video,
      descriptions: [
        { description: BEST, rank: 0.9 },
        { description: SECOND, rank: 0.6 },
      ],
    });
    await writeFile(path.join(dir, CLIP_FILES.thumbnail), media.thumbnail);
    await db().updateTable('clips').set({ streamer_id: streamerId, review_status: 'pending', duration: 2 }).where('id', '=', id).execute();
  }

  it('shows the waiting clips with a count in the navigation; approving needs the account’s privacy, chosen once', async () => {
    await register(page, USER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
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
    await pendingClip('AceClip', 'Ace in overtime');
    await pendingClip('MehClip', 'Quiet moment');
    await pendingClip('RushClip', 'Rush B');

    await page.goto('/app');
    await badge().getByText('3').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Review/ }).click();
    await heading(page, 'Review').waitFor();
    // allTextContents does not wait: the heading shows before the inbox's list has loaded.
    const titles = () => page.getByTestId('review-clip').getByRole('heading', { level: 2 }).allTextContents();
    await expect.poll(titles).toEqual(['Ace in overtime', 'Quiet moment', 'Rush B']);
    const ace = card('Ace in overtime');
    await ace.getByRole('checkbox', { name: '@erin.creates' }).waitFor();
    expect(await ace.getByRole('checkbox', { name: '@erin.creates' }).isChecked()).toBe(true);
    expect(await ace.getByRole('textbox', { name: 'Description' }).inputValue()).toBe(BEST);
    await pageSettled(page);
    await ace.getByTestId('approve-reason').waitFor();
    await inEachLook(
      page,
      async ({ width, theme }) => {
        expect(await horizontalOverflow(page), `${width} ${theme}`).toBeLessThanOrEqual(0);
        // The picture first: it ends the theme's colour transitions, which axe would catch half-way.
        await screenshot(page, `review-inbox-${width}-${theme}`);
        expect(describeViolations(await axeViolations(page)), `the inbox at ${width} ${theme}`).toEqual([]);
      },
      { widest: true },
    );
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });

    // No privacy chosen for the account yet: Approve waits, saying why (the server would refuse it).
    const approveButton = ace.getByRole('button', { name: 'Approve', exact: true });
    await ace.getByTestId('approve-reason').getByText('Choose who can see posts on @erin.creates before approving', { exact: false }).waitFor();
    expect(await approveButton.isDisabled()).toBe(true);
    expect(await approveButton.getAttribute('aria-describedby')).toBe(await ace.getByTestId('approve-reason').getAttribute('id'));
    expect(await reviewStatusOf('AceClip')).toBe('pending');

    const settings = page.getByTestId('account-post-settings').filter({ hasText: '@erin.creates' });
    await settings.getByText('Choose before approving').waitFor();
    await chooseOption(settings, page, 'Who can view this post', 'Only me');
    await toast(page, 'Saved the post settings of @erin.creates').waitFor();
    await settings.getByText('Choose before approving').waitFor({ state: 'detached' });
    await ace.getByTestId('approve-reason').waitFor({ state: 'detached' });
    expect(await approveButton.isEnabled()).toBe(true);
    expect(await db().selectFrom('account_post_settings').select(['privacy_level', 'disable_comment']).execute()).toEqual([{ privacy_level: 'SELF_ONLY', disable_comment: false }]);
  }, 90_000);

  it('approves one clip with the suggestion picked, and it posts with the privacy chosen for the account', async () => {
    const ace = card('Ace in overtime');
    await ace.getByRole('button', { name: new RegExp(SECOND.slice(0, 12)) }).click();
    expect(await ace.getByRole('textbox', { name: 'Description' }).inputValue()).toBe(SECOND);
    await ace.getByRole('button', { name: 'Approve', exact: true }).click();
    await toast(page, 'Approved: queued for 1 account').waitFor();
    await ace.waitFor({ state: 'detached' });
    await badge().getByText('2').waitFor();
    await expect.poll(() => [...fake.posts.values()].map((post) => ({ title: post.postInfo?.title, privacy: post.postInfo?.privacy_level }))).toEqual([
      { title: SECOND, privacy: 'SELF_ONLY' },
    ]);
    expect(await reviewStatusOf('AceClip')).toBe('approved');
  });

  it('rejects a clip: it leaves the inbox, stays in the library and is not posted', async () => {
    const meh = card('Quiet moment');
    await meh.getByRole('button', { name: 'Reject' }).click();
    await toast(page, 'Rejected: the clip stays in your library and will not be posted').waitFor();
    await meh.waitFor({ state: 'detached' });
    expect(await reviewStatusOf('MehClip')).toBe('rejected');
    expect(await db().selectFrom('uploads').innerJoin('clips', 'clips.id', 'uploads.clip_row_id').select('uploads.id').where('clips.clip_id', '=', 'MehClip').execute()).toEqual([]);
  });

  it('bulk-approves the selected clips, then shows the empty inbox and no badge', async () => {
    await pendingClip('LateClip', 'Late night chat');
    await page.reload();
    await card('Late night chat').waitFor();
    await page.getByRole('checkbox', { name: /^Select all/ }).click();
    await page.getByRole('button', { name: 'Approve selected (2)' }).click();
    await toast(page, 'Approved 2 clips').waitFor();
    await page.getByText('Nothing to review').waitFor();
    await badge().waitFor({ state: 'detached' });
    expect(await reviewStatusOf('RushClip')).toBe('approved');
    expect(await reviewStatusOf('LateClip')).toBe('approved');
    await waitForToastsGone(page);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(describeViolations(await axeViolations(page)), 'the empty inbox').toEqual([]);
    await screenshot(page, 'review-empty-390-light');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('saves the selection settings from the streamer dialog', async () => {
    await page.goto('/app/streamers');
    await streamerCard(page, 'PixelQueen').getByRole('button', { name: 'Edit pixelqueen' }).click();
    const dialog = editStreamerDialog(page);
    await chooseOption(dialog, page, 'Clips made in', 'Last 7 days');
    await dialog.getByLabel('Minimum views').fill('500');
    await dialog.getByRole('radio', { name: /Rising fastest/ }).click();
    const creators = dialog.getByRole('textbox', { name: 'Clip creators' });
    await creators.fill('Trusted_Mod');
    await creators.press('Enter');
    await creators.fill('@vip_one');
    await creators.press('Enter');
    await dialog.getByRole('list', { name: 'Clip creators' }).getByText('trusted_mod').waitFor();
    await dialog.getByRole('switch', { name: 'Featured clips only' }).click();
    // Auto publish is on: its mode shows, in review.
    expect(await dialog.getByRole('radio', { name: /Review first/ }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: /Post at once/ }).click();
    expect(describeViolations(await axeViolations(page)), 'the streamer dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = await db().selectFrom('streamers').select(['clip_period', 'min_views', 'rank_by', 'clip_creators', 'publish_mode', 'featured_only']).where('id', '=', streamerId).executeTakeFirstOrThrow();
    expect(saved).toEqual({ clip_period: 'week', min_views: 500, rank_by: 'velocity', clip_creators: ['trusted_mod', 'vip_one'], publish_mode: 'auto', featured_only: true });
  });
});
