import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { DESCRIPTION_MAX_LENGTH, descriptionStats, DISCLOSURE_TYPE_NEEDED } from '@clipshift/shared';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { startFakeTikTok, type FakePost, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { upsertTikTokAccount as upsertAccount } from '../../server/src/domains/publishing/platforms/tiktok.ts';
import { seedClip } from '../helpers/clips.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { launchBrowser, makeClipMedia, screenshotViewport, startE2eApp, type ClipMedia, type E2eApp, type E2eBrowser } from './harness.ts';
import { navLink, toast as toastOn, waitForToastsGone as waitForToastsGoneOn } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { choosePrivacy as choosePrivacyIn, clipCard, postWizard } from './pages/clips.ts';
import { accountsDialog as accountsDialogOf } from './pages/streamers.ts';

const USER = { username: 'riley', password: 'a long enough password' };
/**
 * Avatars on TikTok's picture host (the only kind the app shows), answered by the browser's route
 * below with a small picture of that colour, so they render without the network.
 */
const AVATAR_HOST = 'https://p16-sign-va.tiktokcdn.com';
const avatar = (color: string) => `${AVATAR_HOST}/e2e-avatar/${color.slice(1)}.svg`;
const avatarPicture = (color: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#${color}"/></svg>`;
const ERIN = { openId: 'open-erin', displayName: 'Erin Creates', username: 'erin.creates', avatarUrl: avatar('#f43f5e'), stitchDisabled: false };
const SAM = { openId: 'open-sam', displayName: 'Sam Clips', username: 'samclips', avatarUrl: avatar('#0ea5e9'), stitchDisabled: false };
const KAI = { openId: 'open-kai', displayName: 'Kai Plays', username: 'kai.plays', avatarUrl: avatar('#22c55e'), stitchDisabled: false };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const BEST = 'PixelQueen wins the round alone #pixelqueen #ace #valorant #clip';
const SECOND = 'Clutch of the year #gaming #fps';
/** What the user writes in the wizard: 3 hashtags, 8 words. */
const WRITTEN = 'One versus four in overtime #pixelqueen #ace #valorant';
const LATE_SUGGESTION = 'Chatting with the night crew #justchatting';

interface ClipSpec {
  clip_id: string;
  title: string;
  views: number;
  created: string;
  format: 'vertical' | 'horizontal';
  subtitled: boolean;
  descriptions?: { description: string; rank: number }[];
}

const ACE: ClipSpec = {
  clip_id: 'AceClutchOvertime',
  title: 'Ace clutch in overtime',
  views: 5400,
  created: '2026-03-01T18:00:00Z',
  format: 'vertical',
  subtitled: true,
  // Stored out of order: the wizard lists them by rank.
  descriptions: [
    { description: SECOND, rank: 0.75 },
    { description: BEST, rank: 0.92 },
  ],
};
const TRIPLE: ClipSpec = {
  clip_id: 'TripleKillRush',
  title: 'Triple kill rush',
  views: 12800,
  created: '2026-02-01T12:00:00Z',
  format: 'horizontal',
  subtitled: false,
};
const LATE: ClipSpec = {
  clip_id: 'LateNightChat',
  title: 'Late night chat',
  views: 310,
  created: '2026-03-05T23:00:00Z',
  format: 'vertical',
  subtitled: true,
  descriptions: [{ description: LATE_SUGGESTION, rank: 0.6 }],
};

/** Counts the pause() calls of every video of the page. */
interface PauseSpyWindow extends Window {
  videoPauses?: number;
}

/** Resolves when the accounts list reloaded by the answer to `procedure` has answered in turn. */
function accountsReloadAfter(page: Page, procedure: string): Promise<void> {
  return new Promise((resolve) => {
    let answered = false;
    const onResponse = (response: Response) => {
      if (response.url().includes(procedure)) answered = true;
      else if (answered && response.url().includes('accounts.list')) {
        page.off('response', onResponse);
        resolve();
      }
    };
    page.on('response', onResponse);
  });
}

describe('posting to TikTok: the post wizard, the details modal, the streamers accounts dialog', () => {
  let fake: FakeTikTok;
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir = '';
  let vertical: ClipMedia;
  let horizontal: ClipMedia;
  let userId = '';

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-e2e-posting-'));
    vertical = makeClipMedia(mediaDir, 360, 640);
    horizontal = makeClipMedia(mediaDir, 640, 360);
    fake = await startFakeTikTok({ pollsUntilDone: 0 });
    fake.addUser(ERIN);
    fake.addUser(SAM);
    fake.addUser(KAI);
    // A post is a job: the worker uploads the video to the fake TikTok.
    server = await startE2eApp({ ...fake.env }, { worker: { concurrency: 1 } });
    browser = await launchBrowser(server.baseUrl);
    await browser.context.route(`${AVATAR_HOST}/e2e-avatar/*`, (route) =>
      route.fulfill({ contentType: 'image/svg+xml', body: avatarPicture(path.basename(new URL(route.request().url()).pathname, '.svg')) }),
    );
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  beforeEach(() => fake.reset());

  const db = () => server.app.deps.db;
  const toast = (text: string) => toastOn(page, text);
  const card = (title: string) => clipCard(page, title);
  const steps = () => postWizard(page);
  const wizard = () => steps().dialog();
  const nextButton = () => steps().next();
  const previousButton = () => steps().previous();
  const postButton = () => steps().post();
  const details = () => page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Post this clip' }) });
  const accountCheckbox = (handle: string) => steps().accountCheckbox(handle);
  const streamerCard = () => page.getByTestId('streamer-card').filter({ hasText: 'PixelQueen' });
  const accountsDialog = () => accountsDialogOf(page, 'PixelQueen');
  const postsOf = (openId: string): FakePost[] => [...fake.posts.values()].filter((post) => post.openId === openId);
  const expectStep = (step: number, label: string) => steps().expectStep(step, label);
  const choosePrivacy = (scope: Locator, label: string) => choosePrivacyIn(page, scope, label);

  async function addClip(spec: ClipSpec) {
    const media = spec.format === 'vertical' ? vertical : horizontal;
    const { id, dir } = await seedClip(server.app.deps, userId, {
      clip_id: spec.clip_id,
      title: spec.title,
      streamer_name: 'pixelqueen',
      view_count: spec.views,
      twitch_created_at: new Date(spec.created),
      descriptions: spec.descriptions,
      video: media.video,
    });
    await writeFile(path.join(dir, CLIP_FILES.thumbnail), media.thumbnail);
    // As a download leaves it: tied to its streamer, whose linked accounts a post without chosen accounts goes to.
    const streamer = await db().selectFrom('streamers').select('id').where('user_id', '=', userId).where('name', '=', 'pixelqueen').executeTakeFirstOrThrow();
    await db()
      .updateTable('clips')
      .set({ streamer_id: streamer.id, format_type: spec.format, subtitled: spec.subtitled, duration: 2, game_name: 'VALORANT' })
      .where('id', '=', id)
      .execute();
  }

  /** An account connected without the popup: tokens straight from the fake, stored as the callback does. */
  async function connectDirectly(user: typeof KAI) {
    const tokens = fake.issueTokens(user.openId);
    await upsertAccount(db(), server.app.deps.appSecret, {
      userId,
      via: 'owner',
      tokens: { ...tokens, expiresIn: 86_400, refreshExpiresIn: 31_536_000, openId: user.openId, scope: 'user.info.basic,user.info.profile,video.publish,video.upload' },
      info: { openId: user.openId, unionId: null, avatarUrl: user.avatarUrl, displayName: user.displayName, username: user.username },
    });
  }

  const openWizard = (title: string) => steps().open(title);
  const walkToReview = (handle: string, privacy: string) => steps().walkToReview(handle, privacy);
  const waitForToastsGone = () => waitForToastsGoneOn(page);
  const closeWizard = () => steps().close();

  it('signs up; without accounts, step 3 says so and Connect Account in the wizard adds one through the popup', async () => {
    await register(page, USER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;

    await seedStreamer(server.app.deps, userId, 'pixelqueen', 'PixelQueen');
    for (const spec of [ACE, TRIPLE, LATE]) await addClip(spec);

    await page.goto('/app/clips');
    await card(ACE.title).waitFor();
    expect(await card(ACE.title).getByText('Posted', { exact: true }).count()).toBe(0);

    // No account yet: step 3 says so; Next goes on (spec section 4) but nothing can be posted.
    await openWizard(ACE.title);
    await nextButton().click();
    await nextButton().click();
    await expectStep(3, 'Select Accounts');
    const empty = wizard().getByText('No accounts connected', { exact: true });
    await empty.waitFor();
    expect(await wizard().getByRole('combobox', { name: 'Who can view this post' }).count()).toBe(0);
    expect(await nextButton().isEnabled()).toBe(true);
    await screenshotViewport(page, 'wizard-no-accounts');
    await nextButton().click();
    await expectStep(4, 'Review & Post');
    await wizard().getByText('No account: connect one at Select Accounts to post.').waitFor();
    expect(await postButton().isDisabled()).toBe(true);
    await previousButton().click();

    fake.setAuthorizingUser(ERIN.openId);
    const popup = page.waitForEvent('popup');
    // Connect Account offers every platform; TikTok's authorize page opens in the popup.
    await wizard().getByRole('button', { name: 'Connect Account' }).click();
    await page.getByRole('menuitem', { name: 'TikTok' }).click();
    await toast('TikTok account connected successfully').waitFor();
    await expect.poll(async () => (await popup).isClosed()).toBe(true);
    // The list reloads in place; the wizard stays where it was.
    await accountCheckbox(`@${ERIN.username}`).waitFor();
    await expectStep(3, 'Select Accounts');
    await closeWizard();
  });

  it('step 1 blocks a clip without subtitles and offers to generate them; closing pauses the video', async () => {
    await openWizard(TRIPLE.title);
    const note = wizard().getByTestId('subtitles-required');
    await note.getByText('Generate subtitles first.').waitFor();
    await note.getByRole('button', { name: 'Generate subtitles' }).waitFor();
    expect(await nextButton().isDisabled()).toBe(true);
    expect(await previousButton().isDisabled()).toBe(true);
    expect(await wizard().getByRole('button', { name: 'Post Clip' }).count()).toBe(0);
    // The step indicator names the four steps of the spec.
    expect(await wizard().getByTestId('wizard-steps').getByRole('listitem').allTextContents()).toEqual([
      '1Clip Preview',
      '2Add Description',
      '3Select Accounts',
      '4Review & Post',
    ]);

    await page.evaluate(() => {
      const spy = window as PauseSpyWindow;
      spy.videoPauses = 0;
      const pause = HTMLMediaElement.prototype.pause;
      HTMLMediaElement.prototype.pause = function (this: HTMLMediaElement) {
        spy.videoPauses = (spy.videoPauses ?? 0) + 1;
        pause.call(this);
      };
    });
    const video = wizard().locator('video');
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
    await closeWizard();
    expect(await page.evaluate(() => (window as PauseSpyWindow).videoPauses)).toBeGreaterThan(0);
  });

  it('walks a subtitled clip through the four steps, with Next only when each step is complete', async () => {
    await openWizard(ACE.title);
    await wizard().getByRole('heading', { name: ACE.title }).waitFor();
    await wizard().getByText('Subtitled', { exact: true }).waitFor();
    await wizard().locator('video').waitFor();
    expect(await wizard().getByTestId('subtitles-required').count()).toBe(0);
    expect(await nextButton().isEnabled()).toBe(true);
    await screenshotViewport(page, 'wizard-step-1');

    // Step 2: the Best Match prefills the description; suggestions by rank with percentages.
    await nextButton().click();
    await expectStep(2, 'Add Description');
    const text = wizard().getByLabel('Description', { exact: true });
    expect(await text.inputValue()).toBe(BEST);
    const suggestions = wizard().getByRole('list', { name: 'Description suggestions' }).getByRole('button');
    expect(await suggestions.count()).toBe(2);
    expect(await suggestions.nth(0).textContent()).toContain('Best Match');
    expect(await suggestions.nth(0).textContent()).toContain('92%');
    expect(await suggestions.nth(1).textContent()).toContain('75%');
    expect(await suggestions.nth(1).textContent()).not.toContain('Best Match');
    expect(await wizard().getByTestId('description-counter').textContent()).toBe(`${BEST.length} / ${DESCRIPTION_MAX_LENGTH}`);
    expect(await wizard().getByTestId('hashtag-count').textContent()).toBe('4 hashtags');
    await wizard().getByText('3 to 5 hashtags', { exact: false }).waitFor();

    // A blank description blocks the step; so does one over 2200 characters.
    await text.fill('   ');
    expect(await nextButton().isDisabled()).toBe(true);
    await wizard().getByTestId('description-required').waitFor();
    await text.fill('x'.repeat(DESCRIPTION_MAX_LENGTH + 1));
    expect(await nextButton().isDisabled()).toBe(true);
    expect(await wizard().getByTestId('description-counter').getAttribute('data-over')).toBe('true');
    await suggestions.nth(1).click();
    expect(await text.inputValue()).toBe(SECOND);
    expect(await nextButton().isEnabled()).toBe(true);
    await text.fill(WRITTEN);
    expect(await wizard().getByTestId('hashtag-count').textContent()).toBe('3 hashtags');
    expect(await wizard().getByTestId('description-counter').textContent()).toBe(`${WRITTEN.length} / ${DESCRIPTION_MAX_LENGTH}`);
    await screenshotViewport(page, 'wizard-step-2');

    // Step 3: nothing chosen, no privacy level; both are needed. TikTok's options show once a TikTok account is chosen.
    await nextButton().click();
    await expectStep(3, 'Select Accounts');
    const erin = accountCheckbox(`@${ERIN.username}`);
    await erin.waitFor();
    expect(await erin.isChecked()).toBe(false);
    const privacy = wizard().getByRole('combobox', { name: 'Who can view this post' });
    expect(await privacy.count()).toBe(0);
    expect(await nextButton().isDisabled()).toBe(true);
    await erin.check();
    expect(await privacy.textContent()).toBe('Choose a privacy level');
    expect(await nextButton().isDisabled()).toBe(true);
    // With an account chosen, the menu lists exactly what TikTok says that creator may use.
    await wizard().getByText('The levels every chosen account offers, as TikTok reports them.').waitFor();
    await privacy.click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['Everyone', 'Friends (followers you follow back)', 'Only me']);
    await page.getByRole('option', { name: 'Everyone', exact: true }).click();
    expect(await nextButton().isEnabled()).toBe(true);
    await erin.uncheck();
    expect(await nextButton().isDisabled()).toBe(true);
    await erin.check();
    for (const name of ['Allow comments', 'Allow Duet', 'Allow Stitch']) expect(await wizard().getByRole('checkbox', { name }).isChecked()).toBe(true);
    await wizard().getByRole('checkbox', { name: 'Allow Duet' }).uncheck();
    await screenshotViewport(page, 'wizard-step-3');

    // Step 4: the summary with the description's counts.
    await nextButton().click();
    await expectStep(4, 'Review & Post');
    const stats = descriptionStats(WRITTEN);
    expect(stats).toEqual({ hashtags: 3, words: 8, characters: WRITTEN.length });
    expect(await wizard().getByTestId('review-description').textContent()).toBe(WRITTEN);
    expect(await wizard().getByTestId('review-hashtags').textContent()).toBe('3 hashtags');
    expect(await wizard().getByTestId('review-words').textContent()).toBe('8 words');
    expect(await wizard().getByTestId('review-characters').textContent()).toBe(`${WRITTEN.length} characters`);
    expect(await wizard().getByRole('list', { name: 'Accounts to post to' }).textContent()).toBe(`@${ERIN.username}`);
    expect(await wizard().getByTestId('review-privacy').textContent()).toBe('Everyone');
    expect(await wizard().getByTestId('review-interactions').textContent()).toBe('Comments on · Duet off · Stitch on');
    await wizard().getByText("By posting, you agree to TikTok's Music Usage Confirmation.").waitFor();
    expect(await postButton().isEnabled()).toBe(true);
    await screenshotViewport(page, 'wizard-step-4');

    // Previous keeps every choice.
    await previousButton().click();
    await expectStep(3, 'Select Accounts');
    expect(await erin.isChecked()).toBe(true);
    expect(await wizard().getByRole('combobox', { name: 'Who can view this post' }).textContent()).toBe('Everyone');
    await nextButton().click();
    await expectStep(4, 'Review & Post');
  });

  it('posts: a spinner while TikTok takes the video, the success toast, and the card shows Posted', async () => {
    // Held back until the in-progress state has been seen.
    let letThrough = () => {};
    const held = new Promise<void>((resolve) => {
      letThrough = resolve;
    });
    await page.route('**/api/trpc/posting.post**', async (route) => {
      await held;
      await route.continue();
    });
    await postButton().click();
    const posting = wizard().getByRole('button', { name: 'Posting…' });
    await posting.waitFor();
    expect(await posting.isDisabled()).toBe(true);
    expect(await previousButton().isDisabled()).toBe(true);
    letThrough();
    await toast('Posted to TikTok successfully!').waitFor();
    await wizard().waitFor({ state: 'detached' });
    await page.unroute('**/api/trpc/posting.post**');

    const [post] = postsOf(ERIN.openId);
    expect(postsOf(ERIN.openId)).toHaveLength(1);
    expect(post?.mode).toBe('direct');
    expect(post?.postInfo).toMatchObject({ title: WRITTEN, privacy_level: 'PUBLIC_TO_EVERYONE', disable_comment: false, disable_duet: true, disable_stitch: false });
    // The very bytes of the clip's video arrived.
    expect(fake.uploads.get(post?.publishId ?? '')?.bytes().equals(vertical.video)).toBe(true);

    await card(ACE.title).getByTestId('posted-badge').waitFor();
    expect(await card(ACE.title).getByTestId('posted-badge').getAttribute('title')).toBe(`Posted to @${ERIN.username}`);
    expect(await card(TRIPLE.title).getByTestId('posted-badge').count()).toBe(0);
  });

  it('opens afresh each time, and a second post to the same account shows the conflict', async () => {
    await openWizard(ACE.title);
    await nextButton().click();
    // The typed description was not kept: the Best Match again.
    expect(await wizard().getByLabel('Description', { exact: true }).inputValue()).toBe(BEST);
    await nextButton().click();
    await expectStep(3, 'Select Accounts');
    expect(await accountCheckbox(`@${ERIN.username}`).isChecked()).toBe(false);
    await accountCheckbox(`@${ERIN.username}`).check();
    expect(await wizard().getByRole('combobox', { name: 'Who can view this post' }).textContent()).toBe('Choose a privacy level');
    await choosePrivacy(wizard(), 'Only me');
    await nextButton().click();
    await postButton().click();
    await toast(`Error: This clip is already posted or being posted to @${ERIN.username}`).waitFor();
    // A refusal leaves the wizard open, ready to try again.
    await expectStep(4, 'Review & Post');
    expect(await postButton().isEnabled()).toBe(true);
    expect(postsOf(ERIN.openId)).toHaveLength(1);
    await closeWizard();
  });

  it("says what went wrong at TikTok in plain words, and the wizard's account load error", async () => {
    expectErrorLogs(/^Posting a clip to TikTok failed: This TikTok account has reached its daily posting limit/);
    fake.failNext('video_init', 'spam_risk_too_many_posts');
    await openWizard(LATE.title);
    await walkToReview(`@${ERIN.username}`, 'Everyone');
    await postButton().click();
    await toast('Error: This TikTok account has reached its daily posting limit. Try again tomorrow.').waitFor();
    await expectStep(4, 'Review & Post');
    await closeWizard();

    // Accounts that cannot be loaded: the spec's heading and default message, and a way to retry.
    const accountsCall = (url: URL) => url.pathname.includes('accounts.list');
    await page.route(accountsCall, (route) => route.abort());
    await openWizard(LATE.title);
    await nextButton().click();
    await nextButton().click();
    await wizard().getByText('Error loading accounts', { exact: true }).waitFor();
    expect(await wizard().getByTestId('accounts-error').textContent()).toBe('Failed to load accounts.');
    expect(await nextButton().isDisabled()).toBe(true);
    await page.unroute(accountsCall);
    await wizard().getByRole('button', { name: 'Try again' }).click();
    await accountCheckbox(`@${ERIN.username}`).waitFor();
    await closeWizard();
  });

  it("posts from the details modal through the wizard, with TikTok's commercial content disclosure", async () => {
    await card(LATE.title).getByRole('button', { name: LATE.title }).click();
    const modal = details();
    await modal.getByRole('heading', { name: 'Post this clip' }).waitFor();
    // The failed attempt of the test before shows on the modal.
    await modal.getByTestId('posted-to-entry').filter({ hasText: `@${ERIN.username}` }).getByText('Failed').waitFor();
    expect(await modal.getByLabel('Custom description').inputValue()).toBe('');
    await modal.getByRole('list', { name: 'Description suggestions' }).getByRole('button').first().click();
    expect(await modal.getByLabel('Custom description').inputValue()).toBe(LATE_SUGGESTION);
    // Post opens the wizard (accounts of every platform, each with its options) with the text being edited.
    await modal.getByRole('button', { name: 'Post…' }).click();
    await modal.waitFor({ state: 'detached' });
    await expectStep(1, 'Clip Preview');
    await nextButton().click();
    expect(await wizard().getByLabel('Description', { exact: true }).inputValue()).toBe(LATE_SUGGESTION);
    await nextButton().click();
    await expectStep(3, 'Select Accounts');
    await accountCheckbox(`@${ERIN.username}`).check();
    await choosePrivacy(wizard(), 'Only me');

    // The disclosure: switched on, it asks whose content the post promotes before posting may go on.
    const disclosure = wizard().getByTestId('commercial-disclosure');
    expect(await disclosure.getByRole('checkbox').count()).toBe(0);
    await disclosure.getByRole('switch', { name: 'Disclose video content' }).click();
    await disclosure.getByTestId('disclosure-problem').getByText(DISCLOSURE_TYPE_NEEDED).waitFor();
    expect(await nextButton().isDisabled()).toBe(true);
    await disclosure.getByRole('checkbox', { name: 'Your brand' }).check();
    expect(await disclosure.getByTestId('disclosure-label').allTextContents()).toEqual(['Your photo/video will be labeled as "Promotional content"']);
    expect(await disclosure.getByTestId('disclosure-problem').count()).toBe(0);
    expect(await nextButton().isEnabled()).toBe(true);
    // Branded content cannot be private: "Only me" is given up and offered no more, with the reason.
    await disclosure.getByRole('checkbox', { name: 'Branded content' }).check();
    expect(await disclosure.getByTestId('disclosure-label').allTextContents()).toEqual([
      'Your photo/video will be labeled as "Promotional content"',
      'Your photo/video will be labeled as "Paid partnership"',
    ]);
    const privacy = wizard().getByRole('combobox', { name: 'Who can view this post' });
    expect(await privacy.textContent()).toBe('Choose a privacy level');
    expect(await nextButton().isDisabled()).toBe(true);
    await privacy.click();
    const onlyMe = page.getByRole('option', { name: /Only me/ });
    expect(await onlyMe.getAttribute('aria-disabled')).toBe('true');
    expect(await onlyMe.textContent()).toBe("Only me (Branded content can't be private on TikTok)");
    await page.getByRole('option', { name: 'Everyone', exact: true }).click();
    await screenshotViewport(page, 'wizard-disclosure');
    await nextButton().click();
    await expectStep(4, 'Review & Post');
    expect(await wizard().getByTestId('review-disclosure').getByRole('listitem').count()).toBe(2);
    expect(await wizard().getByTestId('post-consent').textContent()).toBe("By posting, you agree to TikTok's Branded Content Policy and Music Usage Confirmation.");
    await postButton().click();
    await toast('Posted to TikTok successfully!').waitFor();
    await wizard().waitFor({ state: 'detached' });

    const latest = postsOf(ERIN.openId).at(-1);
    expect(latest?.postInfo).toMatchObject({ title: LATE_SUGGESTION, privacy_level: 'PUBLIC_TO_EVERYONE', brand_organic_toggle: true, brand_content_toggle: true });
    await card(LATE.title).getByTestId('posted-badge').waitFor();
    await waitForToastsGone();
  });

  it('links and unlinks accounts in the streamers dialog, and connects another account through the popup', async () => {
    await navLink(page, 'Streamers').click();
    await streamerCard().getByText('No linked accounts').waitFor();
    await streamerCard().getByRole('button', { name: /Manage/ }).click();
    const dialog = accountsDialog();
    const erinRow = dialog.getByRole('listitem', { name: `@${ERIN.username}` });
    await erinRow.waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(1);

    await erinRow.getByRole('button', { name: `Link @${ERIN.username}` }).click();
    await toast('Linked TikTok account to pixelqueen').waitFor();
    await erinRow.getByRole('button', { name: `Unlink @${ERIN.username}` }).waitFor();
    await erinRow.getByText('Linked', { exact: true }).waitFor();
    const chips = () => streamerCard().getByTestId('linked-account');
    await expect.poll(() => chips().allTextContents()).toEqual([`@${ERIN.username}`]);
    await expect.poll(() => chips().first().getAttribute('title')).toBe(ERIN.displayName);

    // Connect Another Account: TikTok's authorize page in the popup, then the list reloads.
    fake.setAuthorizingUser(SAM.openId);
    const popup = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Connect Another Account' }).click();
    await page.getByRole('menuitem', { name: 'TikTok' }).click();
    await toast('TikTok account connected successfully').waitFor();
    await expect.poll(async () => (await popup).isClosed()).toBe(true);
    const samRow = dialog.getByRole('listitem', { name: `@${SAM.username}` });
    await samRow.getByRole('button', { name: `Link @${SAM.username}` }).click();
    await toast('Linked TikTok account to pixelqueen').nth(0).waitFor();
    await expect.poll(() => chips().allTextContents()).toEqual([`@${ERIN.username}`, `@${SAM.username}`]);
    await screenshotViewport(page, 'accounts-dialog');

    const unlinkReloaded = accountsReloadAfter(page, 'posting.unlink');
    await samRow.getByRole('button', { name: `Unlink @${SAM.username}` }).click();
    await toast('Unlinked TikTok account from pixelqueen').waitFor();
    await expect.poll(() => chips().allTextContents()).toEqual([`@${ERIN.username}`]);

    // An account removed meanwhile (another tab): the server's words, and the list catches up.
    // Removed only once the unlink's own reload of the list has answered: a reload reaching the
    // server after the removal would take the row away before the click.
    await unlinkReloaded;
    await db().deleteFrom('accounts').where('open_id', '=', SAM.openId).execute();
    await samRow.getByRole('button', { name: `Link @${SAM.username}` }).click();
    await toast('Error: Account not found').waitFor();
    await samRow.waitFor({ state: 'detached' });

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitForToastsGone();
    await screenshotViewport(page, 'streamers-linked-accounts');
  });

  it("the details modal lists where the clip went; its wizard marks the accounts linked to the clip's streamer", async () => {
    await navLink(page, 'Clips').click();
    await card(LATE.title).getByRole('button', { name: LATE.title }).click();
    const modal = details();
    await modal.getByTestId('posted-to-entry').filter({ hasText: `@${ERIN.username}` }).getByText('Published').waitFor();
    await modal.getByRole('heading', { name: 'Post this clip' }).scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'clip-details-post');
    await modal.getByRole('button', { name: 'Post…' }).click();
    await modal.waitFor({ state: 'detached' });
    await nextButton().click();
    await nextButton().click();
    await expectStep(3, 'Select Accounts');
    await wizard().getByTestId('wizard-account').filter({ hasText: `@${ERIN.username}` }).getByTestId('linked-note').getByText('linked to pixelqueen').waitFor();
    await closeWizard();
  });

  it('once subtitled, a clip goes on; posting to two accounts names the one TikTok refused', async () => {
    expectErrorLogs(/^Posting a clip to TikTok failed: This TikTok account has reached its daily posting limit/);
    await connectDirectly(KAI);
    // Subtitles arrived meanwhile (another tab, a scheduled run): the wizard reads the clip afresh.
    await db().updateTable('clips').set({ subtitled: true }).where('clip_id', '=', TRIPLE.clip_id).execute();
    await openWizard(TRIPLE.title);
    await wizard().getByText('Subtitled', { exact: true }).waitFor();
    expect(await wizard().getByTestId('subtitles-required').count()).toBe(0);
    await nextButton().click();
    await wizard().getByLabel('Description', { exact: true }).fill('Triple kill #fps #clutch #gaming');
    await nextButton().click();
    await accountCheckbox(`@${ERIN.username}`).check();
    await accountCheckbox(`@${KAI.username}`).check();
    await choosePrivacy(wizard(), 'Only me');
    await nextButton().click();
    expect(await wizard().getByRole('list', { name: 'Accounts to post to' }).getByRole('listitem').allTextContents()).toEqual([
      `@${ERIN.username}`,
      `@${KAI.username}`,
    ]);

    const before = fake.posts.size;
    fake.failNext('video_init', 'spam_risk_too_many_posts');
    await postButton().click();
    await toast('Posted to TikTok successfully!').waitFor();
    await toast('This TikTok account has reached its daily posting limit. Try again tomorrow.').waitFor();
    const refusal = await toast('daily posting limit').textContent();
    expect(refusal).toMatch(/^Error: not posted to @(erin\.creates|kai\.plays): This TikTok account has reached its daily posting limit\. Try again tomorrow\.$/);
    await wizard().waitFor({ state: 'detached' });
    expect(fake.posts.size).toBe(before + 1);
    await card(TRIPLE.title).getByTestId('posted-badge').waitFor();
  });

  it('fits a phone: the wizard steps and the accounts dialog', async () => {
    await page.setViewportSize(PHONE);
    await waitForToastsGone();
    await openWizard(ACE.title);
    await screenshotViewport(page, 'wizard-step-1-mobile');
    await nextButton().click();
    await expectStep(2, 'Add Description');
    await screenshotViewport(page, 'wizard-step-2-mobile');
    await nextButton().click();
    await accountCheckbox(`@${ERIN.username}`).check();
    await choosePrivacy(wizard(), 'Only me');
    await wizard().getByTestId('linked-note').filter({ hasText: 'linked to pixelqueen' }).waitFor();
    const stepBody = wizard().getByTestId('wizard-step-3');
    expect(await stepBody.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenshotViewport(page, 'wizard-step-3-mobile');
    await nextButton().click();
    await expectStep(4, 'Review & Post');
    await screenshotViewport(page, 'wizard-step-4-mobile');
    // Nothing spills sideways.
    expect(await wizard().evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await closeWizard();

    await page.goto('/app/streamers');
    await streamerCard().getByRole('button', { name: /Manage/ }).click();
    await accountsDialog().getByRole('listitem', { name: `@${ERIN.username}` }).waitFor();
    await screenshotViewport(page, 'accounts-dialog-mobile');
    expect(await accountsDialog().evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.keyboard.press('Escape');
    await page.setViewportSize(DESKTOP);
    expect(browser.pageErrors).toEqual([]);
  });
});
