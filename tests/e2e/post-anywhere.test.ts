import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Request } from 'playwright-core';
import { ACCOUNT_PLATFORMS, INSTAGRAM_USERNAME_INVALID, TOO_MANY_COLLABORATORS, type AccountPlatform, type PublicUser } from '@clipshift/shared';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { startFakeFacebook, type FakeFacebook } from '../fakes/facebook/index.ts';
import { startFakeInstagram, type FakeInstagram } from '../fakes/instagram/index.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeYouTube, type FakeYouTube } from '../fakes/youtube/index.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { waitUntil } from '../helpers/wait.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, makeClipMedia, screenshot, startE2eApp, type ClipMedia, type E2eApp, type E2eBrowser } from './harness.ts';
import { chooseOption, horizontalOverflow, inEachLook, pageSettled, toast, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { clipCard, detailsDialog, postWizard } from './pages/clips.ts';
import { verifiedPanel } from './pages/connect.ts';
import { accountRow, accountsSection } from './pages/settings.ts';
import { accountsDialog } from './pages/streamers.ts';

/*
 * Post anywhere (issue 21): one account of each of the four platforms connected through Settings'
 * popups against the fakes, one clip posted to all four at once from the wizard (Instagram's
 * options on the way), a post from the details panel, a guest connecting an Instagram account, and
 * the review inbox approving Reels without a privacy choice. Instagram fetches the clip's signed
 * media URL from this test server (PUBLIC_URL is its own origin), as it would from a real one.
 */

const USER = { username: 'robin', password: 'a long enough password' };
const STREAMER = 'pixelqueen';
const TIKTOK = { openId: 'open-robin', displayName: 'Robin Creates', username: 'robin.creates' };
const CHANNEL = { channelId: 'UCrobinplays000000000000', displayName: 'Robin Plays', username: 'robinplays' };
const INSTAGRAM = { username: 'robin.reels', name: 'Robin Reels' };
const GUEST_INSTAGRAM = { username: 'guest.gamer', name: 'Guest Gamer' };
const PAGE_NAME = 'Robin Gaming';
/** One clip to every platform from the wizard; another from the details panel. */
const EVERYWHERE = { clipId: 'EverywhereClip', title: 'Ace on every platform' };
const FROM_DETAILS = { clipId: 'DetailsReel', title: 'Flick from the details panel' };
const FOR_REVIEW = { clipId: 'ReviewReel', title: 'Clutch waiting for review' };
/** Reels need 3 seconds at least, and Facebook 540×960 at least. */
const REEL_SECONDS = 4;
const LABELS: Record<AccountPlatform, string> = { tiktok: 'TikTok', youtube: 'YouTube', instagram: 'Instagram', facebook: 'Facebook' };

describe('Post anywhere: TikTok, YouTube, Instagram Reels and Facebook Page Reels from one wizard', () => {
  let tiktok: FakeTikTok;
  let youtube: FakeYouTube;
  let instagram: FakeInstagram;
  let facebook: FakeFacebook;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let media: ClipMedia;
  let user: PublicUser;
  let streamerId = '';

  const db = () => server.app.deps.db;

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-anywhere-'));
    media = makeClipMedia(mediaDir, 540, 960, REEL_SECONDS);
    tiktok = await startFakeTikTok({ pollsUntilDone: 1 });
    tiktok.addUser(TIKTOK);
    youtube = await startFakeYouTube();
    // The container is ready once Instagram has downloaded the video.
    instagram = await startFakeInstagram({ pollsToFinish: 0 });
    facebook = await startFakeFacebook();
    // PUBLIC_URL stays the test server's own origin (startE2eApp): Instagram downloads the clip from it.
    server = await startE2eApp({ ...tiktok.env, ...youtube.env, ...instagram.env, ...facebook.env }, { worker: { concurrency: 2 } });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await tiktok?.close();
    await youtube?.close();
    await instagram?.close();
    await facebook?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  /** Clicks a connect button; the fake's consent page sends the popup to our callback, which tells the page and closes. */
  async function connectThroughPopup(button: Locator, platform: AccountPlatform): Promise<void> {
    const popup = page.waitForEvent('popup');
    await button.click();
    await toast(page, `${LABELS[platform]} account connected successfully`).waitFor();
    await expect.poll(async () => (await popup).isClosed()).toBe(true);
    await waitForToastsGone(page);
  }

  async function accountIdOf(platform: AccountPlatform): Promise<string> {
    const row = await db().selectFrom('accounts').select('id').where('platform', '=', platform).orderBy('created_at').executeTakeFirstOrThrow();
    return row.id;
  }

  async function seedReel(spec: { clipId: string; title: string }) {
    const { id, dir } = await seedClip(server.app.deps, user.id, {
      clip_id: spec.clipId,
      title: spec.title,
      streamer_name: STREAMER,
      video: media.video,
      descriptions: [{ description: `${spec.title} #${STREAMER} #ace`, rank: 0.9 }],
    });
    await writeFile(path.join(dir, CLIP_FILES.thumbnail), media.thumbnail);
    await db()
      .updateTable('clips')
      .set({ streamer_id: streamerId, subtitled: true, duration: REEL_SECONDS, output_duration: REEL_SECONDS, width: 540, height: 960 })
      .where('id', '=', id)
      .execute();
    return id;
  }

  /** A look's picture, then nothing spills sideways and axe finds nothing. */
  async function lookAt(name: string, ready?: () => Promise<void>) {
    await inEachLook(page, async ({ width, theme }) => {
      await ready?.();
      await pageSettled(page);
      await screenshot(page, `${name}-${width}-${theme}`);
      expect(await horizontalOverflow(page), `${name} ${width} ${theme}`).toBeLessThanOrEqual(0);
      expect(describeViolations(await axeViolations(page)), `${name} ${width} ${theme}`).toEqual([]);
    });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  /** The clip's Posted to entries reach Published, one per platform. */
  async function expectPublished(title: string, platforms: readonly AccountPlatform[]) {
    await clipCard(page, title).getByRole('button', { name: title, exact: true }).click();
    const details = detailsDialog(page);
    const entries = details.getByTestId('posted-to-entry');
    for (const platform of platforms) await entries.and(page.locator(`[data-platform="${platform}"]`)).getByText('Published').waitFor();
    expect(await entries.count()).toBe(platforms.length);
    return details;
  }

  it('connects a TikTok account, a YouTube channel, an Instagram account and a Facebook Page through the Settings popups', async () => {
    await register(page, USER);
    user = await db().selectFrom('users').select(['id', 'username', 'is_admin']).where('username', '=', USER.username).executeTakeFirstOrThrow();
    streamerId = await seedStreamer(server.app.deps, user.id, STREAMER, 'PixelQueen');

    await page.goto('/app/settings');
    const section = accountsSection(page);
    await section.getByText('The TikTok, YouTube, Instagram and Facebook accounts Clipshift posts your clips to', { exact: false }).waitFor();
    // Every platform is configured here: four enabled buttons and no reason beneath them.
    for (const platform of ACCOUNT_PLATFORMS) {
      await expect.poll(() => section.getByRole('button', { name: `Connect ${LABELS[platform]}` }).isEnabled()).toBe(true);
      expect(await section.getByTestId(`${platform}-off-hint`).count()).toBe(0);
    }

    tiktok.setAuthorizingUser(TIKTOK.openId);
    await connectThroughPopup(section.getByRole('button', { name: 'Connect TikTok' }), 'tiktok');
    await accountRow(page, TIKTOK.displayName).waitFor();
    const google = youtube.addUser({ channelTitle: CHANNEL.displayName, handle: `@${CHANNEL.username}`, channelId: CHANNEL.channelId });
    youtube.setAuthorizingUser(google.sub);
    await connectThroughPopup(section.getByRole('button', { name: 'Connect YouTube' }), 'youtube');
    await accountRow(page, CHANNEL.displayName).waitFor();
    const reels = instagram.addUser(INSTAGRAM);
    instagram.setAuthorizingUser(reels.userId);
    await connectThroughPopup(section.getByRole('button', { name: 'Connect Instagram' }), 'instagram');
    await accountRow(page, INSTAGRAM.name).waitFor();
    const person = facebook.addUser('Robin Person', [PAGE_NAME]);
    facebook.setAuthorizingUser(person.user.userId);
    await connectThroughPopup(section.getByRole('button', { name: 'Connect Facebook' }), 'facebook');
    await accountRow(page, PAGE_NAME).waitFor();
    // Each popup really went through the platform's consent page.
    expect(instagram.requestsTo('authorize')).toHaveLength(1);
    expect(facebook.requestsTo('authorize')).toHaveLength(1);

    expect(await section.getByTestId('account-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-platform')))).toEqual([...ACCOUNT_PLATFORMS]);
    const igRow = accountRow(page, INSTAGRAM.name);
    await igRow.getByRole('img', { name: 'Instagram' }).first().waitFor();
    expect(await igRow.getByTestId('account-username').textContent()).toBe(`@${INSTAGRAM.username}`);
    expect(await igRow.getByTestId('account-status').textContent()).toBe('Connected');
    const pageRow = accountRow(page, PAGE_NAME);
    await pageRow.getByRole('img', { name: 'Facebook' }).first().waitFor();
    expect(await pageRow.getByTestId('account-username').textContent()).toBe('Facebook Page');
    expect(await pageRow.getByTestId('account-status').textContent()).toBe('Connected');
    // The same actions as for the other platforms.
    for (const [row, name] of [
      [igRow, INSTAGRAM.name],
      [pageRow, PAGE_NAME],
    ] as const) {
      for (const action of ['Posting schedule of', 'Statistics of', 'Remove']) await row.getByRole('button', { name: `${action} ${name}` }).waitFor();
    }
    await pageRow.getByRole('button', { name: `Statistics of ${PAGE_NAME}` }).click();
    const stats = page.getByRole('dialog', { name: `Statistics: ${PAGE_NAME}` });
    await stats.getByText('No statistics yet: they appear about an hour after a post is published').waitFor();
    await page.keyboard.press('Escape');
    await stats.waitFor({ state: 'detached' });

    await lookAt('post-anywhere-settings');
    expect(browser.pageErrors).toEqual([]);
  });

  it('shows a platform the server cannot connect disabled, with the server’s reason', async () => {
    const bare = await startE2eApp({ ...tiktok.env, ...youtube.env });
    const other = await launchBrowser(bare.baseUrl, { width: 1366, height: 900 });
    try {
      await register(other.page, USER);
      await other.page.goto('/app/settings');
      const section = accountsSection(other.page);
      await expect.poll(() => section.getByRole('button', { name: 'Connect Instagram' }).isDisabled()).toBe(true);
      expect(await section.getByRole('button', { name: 'Connect Facebook' }).isDisabled()).toBe(true);
      expect(await section.getByTestId('instagram-off-hint').textContent()).toBe('Instagram is not configured on this server (INSTAGRAM_CLIENT_ID and INSTAGRAM_CLIENT_SECRET)');
      expect(await section.getByTestId('facebook-off-hint').textContent()).toBe('Facebook is not configured on this server (FACEBOOK_APP_ID and FACEBOOK_APP_SECRET)');
      // The disabled button is described by its reason.
      expect(await section.getByRole('button', { name: 'Connect Instagram' }).getAttribute('aria-describedby')).toBe('instagram-off-hint');
      expect(await section.getByRole('button', { name: 'Connect TikTok' }).isEnabled()).toBe(true);
      expect(await section.getByRole('button', { name: 'Connect YouTube' }).isEnabled()).toBe(true);
      await screenshot(other.page, 'post-anywhere-settings-unconfigured-1366-light');
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.close();
      await bare.close();
    }
  });

  it('posts one clip to all four platforms at once, with Instagram’s options, and shows the four posts published', async () => {
    await seedReel(EVERYWHERE);
    await page.goto('/app/clips');
    const wizard = postWizard(page);
    await wizard.open(EVERYWHERE.title);
    await wizard.next().click();
    await wizard.expectStep(2, 'Add Description');
    await wizard.next().click();
    await wizard.expectStep(3, 'Select Accounts');
    const dialog = wizard.dialog();
    await expect.poll(() => dialog.getByTestId('wizard-account').count()).toBe(4);
    expect(await dialog.getByTestId('instagram-options').count()).toBe(0);

    // Instagram alone: no privacy to choose, so Next goes on at once; the options show.
    await wizard.accountCheckbox(`@${INSTAGRAM.username}`).check();
    const options = dialog.getByTestId('instagram-options');
    await options.waitFor();
    expect(await wizard.next().isEnabled()).toBe(true);
    const feed = options.getByRole('switch', { name: 'Also share to feed' });
    const trial = options.getByRole('switch', { name: 'Trial reel' });
    expect(await feed.getAttribute('aria-checked')).toBe('true');
    expect(await trial.getAttribute('aria-checked')).toBe('false');
    await trial.click();
    expect(await trial.getAttribute('aria-checked')).toBe('true');

    // Collaborators: the API's own words for a name it would refuse and for a fourth one.
    const collaborators = options.getByRole('textbox', { name: 'Collaborators' });
    await collaborators.fill('bad-name!');
    await collaborators.press('Enter');
    expect(await options.getByTestId('collaborators-problem').textContent()).toBe(INSTAGRAM_USERNAME_INVALID);
    await collaborators.fill('@Sam.Plays, kai_clips third.one');
    await collaborators.press('Enter');
    const chips = options.getByRole('list', { name: 'Collaborators' }).getByRole('listitem');
    expect(await chips.allTextContents()).toEqual(['Sam.Plays', 'kai_clips', 'third.one']);
    await collaborators.fill('fourth');
    await collaborators.press('Enter');
    expect(await options.getByTestId('collaborators-problem').textContent()).toBe(TOO_MANY_COLLABORATORS);
    expect(await collaborators.inputValue()).toBe('fourth');
    await collaborators.fill('');
    await options.getByRole('button', { name: 'Remove third.one' }).click();
    expect(await chips.allTextContents()).toEqual(['Sam.Plays', 'kai_clips']);

    // The three others: TikTok's and YouTube's privacy have no default; Facebook has nothing to set.
    await wizard.accountCheckbox(`@${TIKTOK.username}`).check();
    await wizard.accountCheckbox(`@${CHANNEL.username}`).check();
    await dialog.getByRole('checkbox', { name: PAGE_NAME }).check();
    await dialog.getByTestId('facebook-options').waitFor();
    expect(await wizard.next().isDisabled()).toBe(true);
    await chooseOption(dialog, page, 'Who can view this post', 'Everyone');
    await dialog.getByTestId('youtube-options').getByRole('radio', { name: /Public/ }).check();
    expect(await wizard.next().isEnabled()).toBe(true);
    expect(await dialog.getByTestId('preflight-problems').count()).toBe(0);
    await lookAt('post-anywhere-wizard-instagram', () => dialog.getByTestId('instagram-options').scrollIntoViewIfNeeded());

    await wizard.next().click();
    await wizard.expectStep(4, 'Review & Post');
    const rows = dialog.getByTestId('review-platform');
    expect(await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-platform')))).toEqual([...ACCOUNT_PLATFORMS]);
    expect(await dialog.getByRole('list', { name: 'Instagram accounts to post to' }).textContent()).toBe(`@${INSTAGRAM.username}`);
    expect(await dialog.getByRole('list', { name: 'Facebook accounts to post to' }).textContent()).toBe(PAGE_NAME);
    expect(await dialog.getByTestId('review-instagram-feed').textContent()).toBe('On');
    expect(await dialog.getByTestId('review-instagram-trial').textContent()).toBe('On');
    expect(await dialog.getByTestId('review-instagram-collaborators').textContent()).toBe('@Sam.Plays, @kai_clips');
    expect(await dialog.getByTestId('review-privacy').textContent()).toBe('Everyone');
    expect(await dialog.getByTestId('review-youtube-privacy').textContent()).toBe('Public');
    await lookAt('post-anywhere-wizard-review', () => rows.last().scrollIntoViewIfNeeded());

    await wizard.post().click();
    await toast(page, 'Posted to TikTok, YouTube, Instagram and Facebook successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const video = await waitUntil(() => [...youtube.videos.values()], { until: (videos) => videos.length === 1, message: 'the video on YouTube' });
    youtube.finishProcessing(video[0]!.id);
    await waitForToastsGone(page);

    const details = await expectPublished(EVERYWHERE.title, ACCOUNT_PLATFORMS);
    const entries = details.getByTestId('posted-to-entry');
    const pageEntry = entries.and(page.locator('[data-platform="facebook"]'));
    const reel = facebook.publishedReels()[0];
    expect(await pageEntry.getByRole('link', { name: `View on Facebook: ${PAGE_NAME}` }).getAttribute('href')).toBe(`https://www.facebook.com/reel/${reel?.videoId}`);
    await entries.and(page.locator('[data-platform="instagram"]')).getByRole('img', { name: 'Instagram' }).waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // What each platform received.
    const [post] = instagram.publishedPosts();
    expect(post).toMatchObject({ username: INSTAGRAM.username, trial: true, collaborators: ['Sam.Plays', 'kai_clips'], caption: `${EVERYWHERE.title} #${STREAMER} #ace` });
    expect(post?.bytes).toBe(media.video.length);
    expect([...instagram.containers.values()].map((container) => container.shareToFeed)).toEqual([true]);
    expect(reel).toMatchObject({ pageName: PAGE_NAME, description: `${EVERYWHERE.title} #${STREAMER} #ace`, bytes: media.video.length });
    expect(video[0]).toMatchObject({ privacyStatus: 'public', channelId: CHANNEL.channelId });
    expect([...tiktok.posts.values()]).toHaveLength(1);
    expect(await db().selectFrom('uploads').select(['platform', 'status']).orderBy('platform').execute()).toEqual(
      [...ACCOUNT_PLATFORMS].sort().map((platform) => ({ platform, status: 'published' })),
    );
    expect(browser.pageErrors).toEqual([]);
  });

  it('posts from the clip details panel with a YouTube channel linked: the panel opens the wizard', async () => {
    await db().insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: await accountIdOf('youtube') }).execute();
    await seedReel(FROM_DETAILS);
    await page.goto('/app/clips');
    await clipCard(page, FROM_DETAILS.title).getByRole('button', { name: FROM_DETAILS.title, exact: true }).click();
    const details = detailsDialog(page);
    await details.getByTestId('post-targets').getByText('TikTok, YouTube, Instagram, Facebook', { exact: false }).waitFor();
    await details.getByRole('button', { name: 'Post…' }).click();
    const wizard = postWizard(page);
    await wizard.expectStep(1, 'Clip Preview');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
    await wizard.next().click();
    await wizard.next().click();
    await wizard.expectStep(3, 'Select Accounts');
    const dialog = wizard.dialog();
    // The linked channel says so; the others are there to choose too.
    await dialog.getByTestId('wizard-account').filter({ hasText: `@${CHANNEL.username}` }).getByTestId('linked-note').getByText(`linked to ${STREAMER}`).waitFor();
    await wizard.accountCheckbox(`@${CHANNEL.username}`).check();
    await dialog.getByRole('checkbox', { name: PAGE_NAME }).check();
    await dialog.getByTestId('youtube-options').getByRole('radio', { name: /Unlisted/ }).check();
    await wizard.next().click();
    await wizard.expectStep(4, 'Review & Post');
    expect(await dialog.getByTestId('review-platform').evaluateAll((list) => list.map((row) => row.getAttribute('data-platform')))).toEqual(['youtube', 'facebook']);
    await wizard.post().click();
    await toast(page, 'Posted to YouTube and Facebook successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const videos = await waitUntil(() => [...youtube.videos.values()].filter((video) => video.snippet.title === FROM_DETAILS.title), {
      until: (list) => list.length === 1,
      message: 'the video posted from the details panel',
    });
    expect(videos[0]).toMatchObject({ privacyStatus: 'unlisted', channelId: CHANNEL.channelId });
    youtube.finishProcessing(videos[0]!.id);
    await waitForToastsGone(page);
    const after = await expectPublished(FROM_DETAILS.title, ['youtube', 'facebook']);
    await page.keyboard.press('Escape');
    await after.waitFor({ state: 'detached' });
    expect(browser.pageErrors).toEqual([]);
  });

  it('links accounts of any platform to a streamer, whose card shows each one’s platform, and connects any platform from its dialog', async () => {
    await page.goto('/app/streamers');
    const card = page.getByTestId('streamer-card').filter({ hasText: 'PixelQueen' });
    const chips = card.getByTestId('linked-account');
    // The channel linked before: its chip carries YouTube's mark.
    await chips.filter({ hasText: `@${CHANNEL.username}` }).getByRole('img', { name: 'YouTube' }).waitFor();
    await card.getByRole('button', { name: `Manage accounts of ${STREAMER}` }).click();
    const dialog = accountsDialog(page, 'PixelQueen');
    await dialog.getByRole('listitem', { name: PAGE_NAME }).waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(4);
    await dialog.getByRole('button', { name: `Link @${INSTAGRAM.username}` }).click();
    await toast(page, `Linked Instagram account to ${STREAMER}`).waitFor();
    await dialog.getByRole('button', { name: `Link ${PAGE_NAME}` }).click();
    await toast(page, `Linked Facebook account to ${STREAMER}`).waitFor();

    // Connect Another Account offers the four platforms.
    await dialog.getByRole('button', { name: 'Connect Another Account' }).click();
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(ACCOUNT_PLATFORMS.map((platform) => LABELS[platform]));
    await waitForToastsGone(page);
    await screenshot(page, 'post-anywhere-connect-menu-1366-light');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The card (hidden from assistive technology while the dialog was open) shows each account's platform.
    await chips.filter({ hasText: PAGE_NAME }).getByRole('img', { name: 'Facebook' }).waitFor();
    await chips.filter({ hasText: `@${INSTAGRAM.username}` }).getByRole('img', { name: 'Instagram' }).waitFor();
    expect(await chips.count()).toBe(3);
    expect(browser.pageErrors).toEqual([]);
  });

  it('lets a guest with the passkey connect an Instagram account', async () => {
    await page.goto('/app/settings');
    const passkeyOutput = page.getByTestId('guest-passkey');
    await expect.poll(() => passkeyOutput.textContent()).toMatch(/^[A-Z0-9]{6}$/);
    const passkey = (await passkeyOutput.textContent()) ?? '';
    const guest = instagram.addUser(GUEST_INSTAGRAM);
    instagram.setAuthorizingUser(guest.userId);
    const asks: string[] = [];
    const onRequest = (request: Request) => {
      if (new URL(request.url()).pathname.includes('accounts.guestAuthUrl')) asks.push(request.postData() ?? '');
    };
    page.on('request', onRequest);

    await page.goto(`/connect?passkey=${passkey}`);
    const verified = verifiedPanel(page);
    await verified.waitFor();
    for (const platform of ACCOUNT_PLATFORMS) await verified.getByRole('button', { name: `Connect ${LABELS[platform]}` }).waitFor();
    await screenshot(page, 'post-anywhere-guest-1366-light');
    await connectThroughPopup(verified.getByRole('button', { name: 'Connect Instagram' }), 'instagram');
    page.off('request', onRequest);
    expect(asks).toHaveLength(1);
    expect(asks[0]).toContain(passkey);
    expect(asks[0]).toContain('instagram');
    await expect.poll(() => verifiedPanel(page).count()).toBe(0);
    expect(await db().selectFrom('accounts').select(['user_id', 'platform', 'connected_via', 'display_name']).where('username', '=', GUEST_INSTAGRAM.username).execute()).toEqual([
      { user_id: user.id, platform: 'instagram', connected_via: 'guest', display_name: GUEST_INSTAGRAM.name },
    ]);
    expect(browser.pageErrors).toEqual([]);
  });

  it('approves a clip in the review inbox to Instagram and Facebook without any privacy choice', async () => {
    const clipId = await seedReel(FOR_REVIEW);
    await db().updateTable('clips').set({ review_status: 'pending' }).where('id', '=', clipId).execute();
    await page.goto('/app/review');
    const card = page.getByTestId('review-clip').filter({ has: page.getByRole('heading', { name: FOR_REVIEW.title, exact: true }) });
    await card.waitFor();
    // The Reels accounts need nothing chosen in "Post settings per account".
    const settings = page.getByTestId('account-post-settings');
    for (const platform of ['instagram', 'facebook'] as const) {
      const rows = settings.and(page.locator(`[data-platform="${platform}"]`));
      await rows.first().waitFor();
      expect(await rows.getByText('Choose before approving', { exact: true }).count()).toBe(0);
    }
    // Only the Reels accounts: the YouTube channel, linked to the streamer, is unticked.
    const channel = card.getByRole('checkbox', { name: `@${CHANNEL.username}` });
    expect(await channel.isChecked()).toBe(true);
    await channel.uncheck();
    await card.getByRole('checkbox', { name: `@${INSTAGRAM.username}` }).check();
    await card.getByRole('checkbox', { name: PAGE_NAME }).check();
    await card.getByTestId('instagram-options').waitFor();
    const approve = card.getByRole('button', { name: 'Approve', exact: true });
    expect(await approve.isEnabled()).toBe(true);
    expect(await card.getByTestId('approve-reason').count()).toBe(0);
    // Back at the top: scrolled, the lavender of the chosen suggestion would pass under the
    // translucent navigation bar, and axe would judge the bar's text against it.
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await pageSettled(page);
    expect(describeViolations(await axeViolations(page)), 'the inbox').toEqual([]);
    await screenshot(page, 'post-anywhere-review-1366-light');
    const reelsBefore = facebook.publishedReels().length;
    await approve.click();
    await toast(page, 'Approved: queued for 2 accounts').waitFor();
    await waitUntil(() => facebook.publishedReels().length, { until: (count) => count === reelsBefore + 1, message: 'the approved Reel on the Page' });
    await waitUntil(() => instagram.publishedPosts().filter((post) => post.caption.startsWith(FOR_REVIEW.title)), {
      until: (posts) => posts.length === 1,
      message: 'the approved Reel on Instagram',
    });
    expect(browser.pageErrors).toEqual([]);
  });
});
