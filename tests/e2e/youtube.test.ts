import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Request } from 'playwright-core';
import type { PublicUser } from '@clipshift/shared';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeYouTube, type FakeYouTube } from '../fakes/youtube/index.ts';
import { callerFor } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { waitUntil } from '../helpers/wait.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, makeClipMedia, screenshot, startE2eApp, type ClipMedia, type E2eApp, type E2eBrowser } from './harness.ts';
import { chooseOption, horizontalOverflow, pageSettled, toast, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { clipCard, detailsDialog, postWizard } from './pages/clips.ts';
import { verifiedPanel } from './pages/connect.ts';
import { accountCard, accountRow, accountsSection } from './pages/settings.ts';

const USER = { username: 'erin', password: 'a long enough password' };
const ERIN = { openId: 'open-erin', displayName: 'Erin Creates', username: 'erin.creates' };
const CHANNEL = { channelId: 'UCerinplays0000000000000', displayName: 'Erin Plays', username: 'erinplays' };
const OLD_CHANNEL = { channelId: 'UColdchannel000000000000', displayName: 'Old Channel', username: 'oldchannel' };
const GUEST_CHANNEL = { channelId: 'UCguestgamer000000000000', displayName: 'Guest Gamer', username: 'guestgamer' };
const VERTICAL = { clipId: 'AceClip', title: 'Ace in overtime on the last round of the night' };
const WIDE = { clipId: 'WideClip', title: 'Wide clutch' };
/** Posted from the details modal, to both platforms at once. */
const FROM_DETAILS = { clipId: 'DetailsClip', title: 'Flick from the details' };
const NOT_CONFIGURED = 'YouTube is not configured on this server (YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET)';
const EMPTY_STATS = 'No statistics yet: they appear about an hour after a post is published';
/** What the audience did, as the platforms report it to the statistics job. */
const TIKTOK_COUNTS = { views: 12_400, likes: 830, comments: 41, shares: 17 };
const YOUTUBE_COUNTS = { views: 3_050, likes: 210, comments: 9 };
/** Earlier daily readings of the YouTube post (oldest first), so the chart has more than today's point. */
const EARLIER_VIEWS = [120, 480, 900, 1_400, 2_100, 2_600];

describe('YouTube beside TikTok: connected accounts, statistics, posted-to counts and the two-platform wizard', () => {
  let tiktok: FakeTikTok;
  let youtube: FakeYouTube;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let media: ClipMedia;
  let user: PublicUser;
  let streamerId = '';
  const ids = { tiktok: '', youtube: '', old: '' };
  /** The two posts of the vertical clip once published: their rows' ids and the platforms' ids. */
  const posted = { tiktokUpload: '', tiktokPost: '', youtubeUpload: '', youtubeVideo: '' };

  const db = () => server.app.deps.db;

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-youtube-'));
    media = makeClipMedia(mediaDir, 360, 640);
    // TikTok needs one status poll before the post is public.
    tiktok = await startFakeTikTok({ pollsUntilDone: 1 });
    tiktok.addUser(ERIN);
    youtube = await startFakeYouTube();
    // Posts are jobs: the worker uploads to the fakes and the statistics job reads them.
    server = await startE2eApp({ ...tiktok.env, ...youtube.env }, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await tiktok?.close();
    await youtube?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  /** Clicks a connect button; the fake's consent page sends the popup to our callback, which tells the page and closes. */
  async function connectThroughPopup(button: Locator, platform: 'TikTok' | 'YouTube'): Promise<void> {
    const popup = page.waitForEvent('popup');
    await button.click();
    await toast(page, `${platform} account connected successfully`).waitFor();
    await expect.poll(async () => (await popup).isClosed()).toBe(true);
    await waitForToastsGone(page);
  }

  function accountIdOf(openId: string): Promise<string> {
    return db().selectFrom('accounts').select('id').where('open_id', '=', openId).executeTakeFirstOrThrow().then((row) => row.id);
  }

  async function seedClipOf(spec: { clipId: string; title: string }, format: 'vertical' | 'horizontal') {
    const { id, dir } = await seedClip(server.app.deps, user.id, {
      clip_id: spec.clipId,
      title: spec.title,
      streamer_name: 'pixelqueen',
      video: media.video,
      descriptions: [{ description: `${spec.title} #pixelqueen #ace #valorant`, rank: 0.9 }],
    });
    await writeFile(path.join(dir, CLIP_FILES.thumbnail), media.thumbnail);
    await db().updateTable('clips').set({ streamer_id: streamerId, format_type: format, subtitled: true, duration: 24, output_duration: 24 }).where('id', '=', id).execute();
    return id;
  }

  /** Pictures at 1366 and 390 px, light and dark: nothing spills sideways, no axe violations. */
  async function lookAt(name: string, ready?: () => Promise<void>) {
    for (const [width, height] of [[1366, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        await ready?.();
        await screenshot(page, `${name}-${width}-${theme}`);
        expect(await horizontalOverflow(page), `${name} ${width} ${theme}`).toBeLessThanOrEqual(0);
        expect(describeViolations(await axeViolations(page)), `${name} ${width} ${theme}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('connects a TikTok account and YouTube channels through the popups and lists them in one table, with their status', async () => {
    await register(page, USER);
    user = await db().selectFrom('users').select(['id', 'username', 'is_admin']).where('username', '=', USER.username).executeTakeFirstOrThrow();
    streamerId = await seedStreamer(server.app.deps, user.id, 'pixelqueen', 'PixelQueen');

    await page.goto('/app/settings');
    const section = accountsSection(page);
    await connectThroughPopup(section.getByRole('button', { name: 'Connect TikTok' }), 'TikTok');
    await accountRow(page, ERIN.displayName).waitFor();
    // Google's consent page signs in as the channel's owner and sends the popup to /api/youtube/callback.
    const erin = youtube.addUser({ channelTitle: CHANNEL.displayName, handle: `@${CHANNEL.username}`, channelId: CHANNEL.channelId });
    youtube.setAuthorizingUser(erin.sub);
    await connectThroughPopup(section.getByRole('button', { name: 'Connect YouTube' }), 'YouTube');
    await accountRow(page, CHANNEL.displayName).waitFor();
    const old = youtube.addUser({ channelTitle: OLD_CHANNEL.displayName, handle: `@${OLD_CHANNEL.username}`, channelId: OLD_CHANNEL.channelId });
    youtube.setAuthorizingUser(old.sub);
    await connectThroughPopup(section.getByRole('button', { name: 'Connect YouTube' }), 'YouTube');
    await accountRow(page, OLD_CHANNEL.displayName).waitFor();
    // The popup really went through Google's consent page for each channel.
    expect(youtube.requestsTo('authorize')).toHaveLength(2);
    expect(youtube.requestsTo('token').map((request) => request.form?.grant_type)).toEqual(['authorization_code', 'authorization_code']);

    ids.tiktok = await accountIdOf(ERIN.openId);
    ids.youtube = await accountIdOf(CHANNEL.channelId);
    ids.old = await accountIdOf(OLD_CHANNEL.channelId);
    expect(await db().selectFrom('accounts').select(['platform', 'display_name', 'username']).where('id', 'in', [ids.youtube, ids.old]).orderBy('created_at').execute()).toEqual([
      { platform: 'youtube', display_name: CHANNEL.displayName, username: CHANNEL.username },
      { platform: 'youtube', display_name: OLD_CHANNEL.displayName, username: OLD_CHANNEL.username },
    ]);
    // The old channel's owner removed the app in their Google account: the app marks the account so on
    // Google's invalid_grant; that state is set here directly.
    await db().updateTable('accounts').set({ needs_reconnect: true }).where('id', '=', ids.old).execute();
    for (const accountId of [ids.tiktok, ids.youtube]) await db().insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: accountId }).execute();
    await seedClipOf(VERTICAL, 'vertical');
    await seedClipOf(WIDE, 'horizontal');

    await page.reload();
    await accountRow(page, CHANNEL.displayName).waitFor();
    expect(await section.getByTestId('account-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-platform')))).toEqual(['tiktok', 'youtube', 'youtube']);
    expect(await section.getByRole('columnheader').allTextContents()).toEqual(['Platform', 'Account', 'Linked Streamers', 'Status', 'Added', 'Actions']);

    const tiktokRow = accountRow(page, ERIN.displayName);
    await tiktokRow.getByRole('img', { name: 'TikTok' }).first().waitFor();
    expect(await tiktokRow.getByTestId('account-status').textContent()).toBe('Connected');
    const channel = accountRow(page, CHANNEL.displayName);
    await channel.getByRole('img', { name: 'YouTube' }).first().waitFor();
    expect(await channel.getByTestId('account-username').textContent()).toBe(`@${CHANNEL.username}`);
    expect(await channel.getByRole('list', { name: 'Linked streamers' }).getByRole('listitem').allTextContents()).toEqual(['pixelqueen']);
    expect(await channel.getByTestId('account-status').textContent()).toBe('Connected');
    // The Google project's uploads of today, beside every channel.
    expect(await channel.getByTestId('account-uploads-left').textContent()).toBe('100 uploads left today');
    expect(await channel.getByRole('button', { name: `Reconnect ${CHANNEL.displayName}` }).count()).toBe(0);
    const oldRow = accountRow(page, OLD_CHANNEL.displayName);
    expect(await oldRow.getByTestId('account-status').textContent()).toBe('Reconnect needed');
    await oldRow.getByRole('button', { name: `Reconnect ${OLD_CHANNEL.displayName}` }).waitFor();
    expect(await section.getByRole('button', { name: 'Connect YouTube' }).isEnabled()).toBe(true);
    expect(await section.getByTestId('youtube-off-hint').count()).toBe(0);

    await lookAt('connected-accounts');
    // Phones get a card per account instead of the table.
    await page.setViewportSize({ width: 390, height: 844 });
    const card = accountCard(page, OLD_CHANNEL.displayName);
    await card.getByText('Reconnect needed').waitFor();
    await card.getByRole('button', { name: `Reconnect ${OLD_CHANNEL.displayName}` }).waitFor();
    expect(await accountRow(page, OLD_CHANNEL.displayName).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(browser.pageErrors).toEqual([]);
  });

  it('disables Connect YouTube with the server’s reason on a server without YOUTUBE_* settings', async () => {
    const bare = await startE2eApp({ ...tiktok.env });
    const other = await launchBrowser(bare.baseUrl, { width: 1366, height: 900 });
    try {
      await register(other.page, USER);
      // The server's own answer, with the signed-in session: 503 and the reason the button shows.
      const answer = await other.page.request.get('/api/youtube/auth-url');
      expect(answer.status()).toBe(503);
      expect(await answer.json()).toMatchObject({ message: NOT_CONFIGURED });
      await other.page.goto('/app/settings');
      const section = accountsSection(other.page);
      const connectYouTube = section.getByRole('button', { name: 'Connect YouTube' });
      await expect.poll(() => connectYouTube.isDisabled()).toBe(true);
      expect(await section.getByTestId('youtube-off-hint').textContent()).toBe(NOT_CONFIGURED);
      expect(await section.getByRole('button', { name: 'Connect TikTok' }).isEnabled()).toBe(true);
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.close();
      await bare.close();
    }
  });

  it('posts to TikTok and YouTube at once with each platform’s options; preflight holds back a horizontal Short', async () => {
    await page.goto('/app/clips');
    const wizard = postWizard(page);
    await wizard.open(VERTICAL.title);
    await wizard.next().click();
    await wizard.expectStep(2, 'Add Description');
    await wizard.next().click();
    await wizard.expectStep(3, 'Select Accounts');
    const dialog = wizard.dialog();
    const items = dialog.getByTestId('wizard-account');
    await expect.poll(() => items.count()).toBe(3);
    // A channel that needs reconnecting cannot be chosen, and says why.
    const old = wizard.accountCheckbox(`@${OLD_CHANNEL.username}`);
    expect(await old.isDisabled()).toBe(true);
    await items.filter({ hasText: `@${OLD_CHANNEL.username}` }).getByText('Reconnect needed', { exact: false }).waitFor();
    expect(await dialog.getByTestId('tiktok-options').count()).toBe(0);
    expect(await dialog.getByTestId('youtube-options').count()).toBe(0);

    await wizard.accountCheckbox(`@${ERIN.username}`).check();
    await dialog.getByTestId('tiktok-options').waitFor();
    expect(await dialog.getByTestId('youtube-options').count()).toBe(0);
    await wizard.accountCheckbox(`@${CHANNEL.username}`).check();
    const options = dialog.getByTestId('youtube-options');
    await options.waitFor();
    const title = options.getByLabel('Title');
    expect(await title.inputValue()).toBe(VERTICAL.title);
    expect(await options.getByTestId('youtube-title-counter').textContent()).toBe(`${VERTICAL.title.length}/100`);
    // No privacy is chosen for the user on either platform: Next waits for both.
    const radios = options.getByRole('radio');
    expect(await radios.count()).toBe(3);
    for (const radio of await radios.all()) expect(await radio.isChecked()).toBe(false);
    expect(await wizard.next().isDisabled()).toBe(true);
    // Public, so that TikTok gives the post an id to link to and count.
    await chooseOption(dialog, page, 'Who can view this post', 'Everyone');
    expect(await wizard.next().isDisabled()).toBe(true);
    await options.getByRole('radio', { name: /Unlisted/ }).check();
    expect(await wizard.next().isEnabled()).toBe(true);
    // Subscribers are not told unless asked.
    const notify = options.getByLabel('Notify subscribers');
    expect(await notify.isChecked()).toBe(false);
    await notify.check();
    await title.fill('x'.repeat(101));
    expect(await options.getByTestId('youtube-title-counter').textContent()).toBe('101/100');
    expect(await wizard.next().isDisabled()).toBe(true);
    await title.fill('Ace in overtime');
    expect(await wizard.next().isEnabled()).toBe(true);
    await lookAt('post-wizard-youtube', () => dialog.getByTestId('youtube-options').scrollIntoViewIfNeeded());

    await wizard.next().click();
    await wizard.expectStep(4, 'Review & Post');
    expect(await dialog.getByTestId('review-youtube-title').textContent()).toBe('Ace in overtime');
    expect(await dialog.getByTestId('review-youtube-privacy').textContent()).toBe('Unlisted');
    expect(await dialog.getByTestId('review-privacy').textContent()).toBe('Everyone');
    await wizard.post().click();
    // The post answers once YouTube holds the video; YouTube then processes it, which the fake finishes here.
    await toast(page, 'Posted to TikTok and YouTube successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const video = await waitUntil(() => [...youtube.videos.values()], { until: (videos) => videos.length === 1, message: 'the video on YouTube' });
    expect(video[0]).toMatchObject({ snippet: expect.objectContaining({ title: 'Ace in overtime' }), privacyStatus: 'unlisted', channelId: CHANNEL.channelId, notifySubscribers: true });
    youtube.finishProcessing(video[0]!.id);
    await waitForToastsGone(page);

    // Both posts end published, each under its platform in Posted to.
    await clipCard(page, VERTICAL.title).getByRole('button', { name: VERTICAL.title, exact: true }).click();
    const details = detailsDialog(page);
    const entries = details.getByTestId('posted-to-entry');
    await entries.filter({ hasText: `@${ERIN.username}` }).getByText('Published').waitFor();
    await entries.filter({ hasText: `@${CHANNEL.username}` }).getByText('Published').waitFor();
    expect(await entries.count()).toBe(2);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    const uploads = await db().selectFrom('uploads').select(['id', 'platform', 'external_id', 'status', 'title', 'privacy_level']).orderBy('platform').execute();
    expect(uploads).toMatchObject([
      { platform: 'tiktok', status: 'published', privacy_level: 'PUBLIC_TO_EVERYONE', external_id: expect.stringMatching(/^\d{19}$/) },
      { platform: 'youtube', status: 'published', external_id: video[0]!.id, title: 'Ace in overtime' },
    ]);
    posted.tiktokUpload = uploads[0]!.id;
    posted.tiktokPost = uploads[0]!.external_id ?? '';
    posted.youtubeUpload = uploads[1]!.id;
    posted.youtubeVideo = video[0]!.id;

    // A horizontal clip is no Short: the YouTube problem shows before the last step and holds Next back.
    await wizard.open(WIDE.title);
    await wizard.next().click();
    await wizard.next().click();
    await wizard.expectStep(3, 'Select Accounts');
    await wizard.accountCheckbox(`@${CHANNEL.username}`).check();
    await options.getByRole('radio', { name: /Public/ }).check();
    const problems = dialog.getByTestId('preflight-problem');
    await problems.first().waitFor();
    expect(await problems.evaluateAll((list) => list.map((item) => item.getAttribute('data-platform')))).toEqual(['youtube']);
    expect(await problems.first().textContent()).toContain('vertical or square');
    expect(await wizard.next().isDisabled()).toBe(true);
    await lookAt('post-wizard-youtube-preflight', () => dialog.getByTestId('preflight-problems').scrollIntoViewIfNeeded());
    // TikTok takes it horizontal: with the channel unticked, the problem goes and the post can go on.
    await wizard.accountCheckbox(`@${CHANNEL.username}`).uncheck();
    await wizard.accountCheckbox(`@${ERIN.username}`).check();
    await chooseOption(dialog, page, 'Who can view this post', 'Only me');
    expect(await problems.count()).toBe(0);
    expect(await wizard.next().isEnabled()).toBe(true);
    await wizard.close();
    expect(browser.pageErrors).toEqual([]);
  });

  it('reads the posts’ counts with the statistics job and shows an account’s totals, views per day and top clips', async () => {
    tiktok.setVideoStats(posted.tiktokPost, TIKTOK_COUNTS);
    youtube.setStatistics(posted.youtubeVideo, YOUTUBE_COUNTS);
    // The YouTube post went out days ago and was read daily since, as the job writes its readings.
    const day = 86_400_000;
    const publishedAt = new Date(Date.now() - EARLIER_VIEWS.length * day);
    await db().updateTable('uploads').set({ published_at: publishedAt }).where('id', '=', posted.youtubeUpload).execute();
    await db()
      .insertInto('post_stats_history')
      .values(EARLIER_VIEWS.map((views, index) => ({ upload_id: posted.youtubeUpload, fetched_at: new Date(publishedAt.getTime() + index * day + 60_000), views, likes: Math.round(views / 15), comments: index, shares: null })))
      .execute();
    // Both are due now (the cron may have read zeros right after publishing); the job is queued as the cron does.
    await db().updateTable('uploads').set({ stats_due_at: new Date() }).where('id', 'in', [posted.tiktokUpload, posted.youtubeUpload]).execute();
    await sql`select graphile_worker.add_job('publishing/refresh-stats', '{}'::json, job_key => 'publishing-refresh-stats')`.execute(db());
    await waitUntil(() => db().selectFrom('uploads').select(['platform', 'stats']).orderBy('platform').execute(), {
      until: (rows) => rows.length === 2 && rows[0]?.stats?.views === TIKTOK_COUNTS.views && rows[1]?.stats?.views === YOUTUBE_COUNTS.views,
      message: 'the statistics job to read both posts',
      intervalMs: 200,
    });

    const expected = await callerFor(server.app.deps, { user }).api.accounts.stats({ id: ids.youtube, days: 30 });
    expect(expected.totals).toEqual({ views: YOUTUBE_COUNTS.views, likes: YOUTUBE_COUNTS.likes, comments: YOUTUBE_COUNTS.comments, shares: null, posts: 1 });
    expect(expected.series.at(-1)?.views).toBe(YOUTUBE_COUNTS.views);
    expect(expected.series.filter((point) => point.views > 0).map((point) => point.views)).toEqual([...EARLIER_VIEWS, YOUTUBE_COUNTS.views]);

    await page.goto('/app/settings');
    await accountRow(page, CHANNEL.displayName).getByRole('button', { name: `Statistics of ${CHANNEL.displayName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Statistics: ${CHANNEL.displayName}` });
    await dialog.getByTestId('views-chart').waitFor();
    const totals = dialog.getByTestId('stats-totals');
    expect(await totals.locator('dt').allTextContents()).toEqual(['Views', 'Likes', 'Comments', 'Posts']);
    expect(await totals.locator('dd').first().getAttribute('title')).toBe(YOUTUBE_COUNTS.views.toLocaleString('en-US'));
    // The chart is one image named by its title; its points are in a table for screen readers.
    await dialog.getByRole('img', { name: 'Views per day, last 30 days' }).waitFor();
    const points = dialog.getByRole('table', { name: 'Views per day, last 30 days' }).getByRole('row');
    expect(await points.count()).toBe(expected.series.length + 1);
    expect(await points.last().getByRole('cell').last().textContent()).toBe(String(YOUTUBE_COUNTS.views));
    expect(await dialog.getByTestId('top-clip').allInnerTexts()).toEqual([expect.stringContaining(expected.top[0]!.title)]);
    await lookAt('account-stats', () => dialog.getByTestId('views-chart').waitFor());
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // An account without published posts yet says when the numbers come.
    await accountRow(page, OLD_CHANNEL.displayName).getByRole('button', { name: `Statistics of ${OLD_CHANNEL.displayName}` }).click();
    const empty = page.getByRole('dialog', { name: `Statistics: ${OLD_CHANNEL.displayName}` });
    await empty.getByText(EMPTY_STATS).waitFor();
    expect(await empty.getByTestId('views-chart').count()).toBe(0);
    await page.keyboard.press('Escape');
    await empty.waitFor({ state: 'detached' });
  });

  it('shows where a clip went: each platform, a link to the post and its counts', async () => {
    await page.goto('/app/clips');
    await clipCard(page, VERTICAL.title).getByRole('button', { name: VERTICAL.title, exact: true }).click();
    const details = detailsDialog(page);
    const entries = details.getByTestId('posted-to-entry');
    await expect.poll(() => entries.count()).toBe(2);
    const tiktokEntry = entries.filter({ hasText: `@${ERIN.username}` });
    const youtubeEntry = entries.filter({ hasText: `@${CHANNEL.username}` });
    expect(await tiktokEntry.getAttribute('data-platform')).toBe('tiktok');
    expect(await youtubeEntry.getAttribute('data-platform')).toBe('youtube');
    await youtubeEntry.getByRole('img', { name: 'YouTube' }).waitFor();
    expect(await tiktokEntry.getByRole('link', { name: `View on TikTok: @${ERIN.username}` }).getAttribute('href')).toBe(
      `https://www.tiktok.com/@${ERIN.username}/video/${posted.tiktokPost}`,
    );
    expect(await youtubeEntry.getByRole('link', { name: `View on YouTube: @${CHANNEL.username}` }).getAttribute('href')).toBe(`https://www.youtube.com/shorts/${posted.youtubeVideo}`);
    expect(await tiktokEntry.getByTestId('post-stats').textContent()).toMatch(/^12\.4K views830 likes41 comments17 shares· updated (just now|\d+ min ago)$/);
    // YouTube counts no shares: none is shown.
    expect(await youtubeEntry.getByTestId('post-stats').textContent()).toMatch(/^3\.1K views210 likes9 comments· updated (just now|\d+ min ago)$/);
    await lookAt('posted-to-stats', async () => {
      await details.getByTestId('posted-to-entry').first().scrollIntoViewIfNeeded();
    });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
  });

  it('lets a guest with the passkey connect a YouTube channel through the same popup flow', async () => {
    await page.goto('/app/settings');
    const passkeyOutput = page.getByTestId('guest-passkey');
    await expect.poll(() => passkeyOutput.textContent()).toMatch(/^[A-Z0-9]{6}$/);
    const passkey = (await passkeyOutput.textContent()) ?? '';
    const guest = youtube.addUser({ channelTitle: GUEST_CHANNEL.displayName, handle: `@${GUEST_CHANNEL.username}`, channelId: GUEST_CHANNEL.channelId });
    youtube.setAuthorizingUser(guest.sub);
    // The page asks the server's accounts.guestAuthUrl with the passkey and the platform, then Google's consent page.
    const guestAsks: string[] = [];
    const onRequest = (request: Request) => {
      if (new URL(request.url()).pathname.includes('accounts.guestAuthUrl')) guestAsks.push(request.postData() ?? '');
    };
    page.on('request', onRequest);
    const consentsBefore = youtube.requestsTo('authorize').length;

    await page.goto(`/connect?passkey=${passkey}`);
    const verified = verifiedPanel(page);
    await verified.waitFor();
    await verified.getByRole('button', { name: 'Connect TikTok' }).waitFor();
    await connectThroughPopup(verified.getByRole('button', { name: 'Connect YouTube' }), 'YouTube');
    page.off('request', onRequest);
    expect(guestAsks).toHaveLength(1);
    expect(guestAsks[0]).toContain(passkey);
    expect(guestAsks[0]).toContain('youtube');
    expect(youtube.requestsTo('authorize')).toHaveLength(consentsBefore + 1);
    // Connected: the page starts over for the next guest.
    await expect.poll(() => verifiedPanel(page).count()).toBe(0);
    // The channel is the owner's, connected by a guest.
    expect(await db().selectFrom('accounts').select(['user_id', 'platform', 'connected_via', 'display_name']).where('open_id', '=', GUEST_CHANNEL.channelId).execute()).toEqual([
      { user_id: user.id, platform: 'youtube', connected_via: 'guest', display_name: GUEST_CHANNEL.displayName },
    ]);
    expect(browser.pageErrors).toEqual([]);
  });

  it('offers YouTube channels in the review inbox, with private/unlisted/public chosen once per channel', async () => {
    await db().updateTable('clips').set({ review_status: 'pending' }).where('clip_id', '=', WIDE.clipId).execute();
    await page.goto('/app/review');
    const card = page.getByTestId('review-clip').filter({ has: page.getByRole('heading', { name: WIDE.title, exact: true }) });
    const channel = card.getByRole('checkbox', { name: `@${CHANNEL.username}` });
    await channel.waitFor();
    // Linked to the clip's streamer: chosen at first, like a linked TikTok account.
    expect(await channel.isChecked()).toBe(true);
    expect(await card.getByRole('checkbox', { name: `@${ERIN.username}` }).isChecked()).toBe(true);
    expect(await card.getByRole('checkbox', { name: `@${OLD_CHANNEL.username}` }).isChecked()).toBe(false);
    await card.locator('label').filter({ hasText: `@${CHANNEL.username}` }).getByRole('img', { name: 'YouTube' }).waitFor();

    const settings = page.getByTestId('account-post-settings');
    const channelSettings = settings.filter({ hasText: `@${CHANNEL.username}` });
    expect(await channelSettings.getAttribute('data-platform')).toBe('youtube');
    await channelSettings.getByText('Choose before approving').waitFor();
    expect(await channelSettings.getByRole('combobox').count()).toBe(0);
    expect(await settings.filter({ hasText: `@${ERIN.username}` }).getByRole('combobox', { name: 'Who can view this post' }).count()).toBe(1);
    await pageSettled(page);
    expect(describeViolations(await axeViolations(page)), 'the inbox').toEqual([]);
    await screenshot(page, 'review-youtube-1366-light');
    // The radio shows the server's stored choice, so it is clicked rather than checked here.
    await channelSettings.getByRole('radio', { name: /Private/ }).click();
    await toast(page, `Saved the post settings of @${CHANNEL.username}`).waitFor();
    const stored = await callerFor(server.app.deps, { user }).api.review.accountSettings();
    expect(stored.find((row) => row.tiktok_account_id === ids.youtube)).toMatchObject({ youtube_privacy: 'private' });
    // After a reload the radio shows what the server kept.
    await page.reload();
    await settings.filter({ hasText: `@${CHANNEL.username}` }).getByRole('radio', { name: /Private/ }).waitFor();
    expect(await settings.filter({ hasText: `@${CHANNEL.username}` }).getByRole('radio', { name: /Private/ }).isChecked()).toBe(true);
    expect(browser.pageErrors).toEqual([]);
  });
  it('posts from the details modal to a TikTok account and a YouTube channel, each with its own options, through the wizard', async () => {
    await seedClipOf(FROM_DETAILS, 'vertical');
    await page.goto('/app/clips');
    await clipCard(page, FROM_DETAILS.title).getByRole('button', { name: FROM_DETAILS.title, exact: true }).click();
    const details = detailsDialog(page);
    await details.getByRole('heading', { name: 'Post this clip' }).waitFor();
    // Both are linked to the streamer: the modal sends nothing itself, it opens the wizard.
    await details.getByRole('button', { name: 'Post…' }).click();
    const wizard = postWizard(page);
    await wizard.expectStep(1, 'Clip Preview');
    // The modal closed: the wizard (which plays the clip too) is the only dialog.
    await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
    await page.getByRole('heading', { name: 'Post this clip' }).waitFor({ state: 'detached' });
    await wizard.next().click();
    await wizard.next().click();
    await wizard.expectStep(3, 'Select Accounts');
    const dialog = wizard.dialog();
    await wizard.accountCheckbox(`@${ERIN.username}`).check();
    await wizard.accountCheckbox(`@${CHANNEL.username}`).check();
    await chooseOption(dialog, page, 'Who can view this post', 'Everyone');
    expect(await wizard.next().isDisabled()).toBe(true);
    await dialog.getByTestId('youtube-options').getByRole('radio', { name: /Public/ }).check();
    await wizard.next().click();
    await wizard.expectStep(4, 'Review & Post');
    expect(await dialog.getByTestId('review-youtube-privacy').textContent()).toBe('Public');
    await wizard.post().click();
    await toast(page, 'Posted to TikTok and YouTube successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const videos = await waitUntil(() => [...youtube.videos.values()].filter((video) => video.snippet.title === FROM_DETAILS.title), {
      until: (list) => list.length === 1,
      message: 'the video posted from the details on YouTube',
    });
    expect(videos[0]).toMatchObject({ privacyStatus: 'public', channelId: CHANNEL.channelId });
    youtube.finishProcessing(videos[0]!.id);
    await waitForToastsGone(page);

    await clipCard(page, FROM_DETAILS.title).getByRole('button', { name: FROM_DETAILS.title, exact: true }).click();
    const entries = detailsDialog(page).getByTestId('posted-to-entry');
    await entries.filter({ hasText: `@${ERIN.username}` }).getByText('Published').waitFor();
    await entries.filter({ hasText: `@${CHANNEL.username}` }).getByText('Published').waitFor();
    expect(await entries.count()).toBe(2);
    await page.keyboard.press('Escape');
    expect(browser.pageErrors).toEqual([]);
  });
});
