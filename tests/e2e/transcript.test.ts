import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { CAPTION_PRESET_STYLES, type ClipTranscript, type Streamer } from '@clipshift/shared';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { goVia, heading, horizontalOverflow, toast as toastOn, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { editStreamerDialog, streamerCard } from './pages/streamers.ts';

const USER = { username: 'robin', password: 'a long enough password' };
const CLIP_ID = 'ShroudAceOvertime';
const STREAMER = 'shroud';
const SIZES = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** Speech recognition's words, as a subtitle job stores them: a pause after "four." starts a new line. */
const WORDS = [
  { start: 0.2, end: 0.5, text: 'Um,' },
  { start: 0.5, end: 0.8, text: 'no' },
  { start: 0.8, end: 1.1, text: 'way' },
  { start: 1.1, end: 1.4, text: 'she' },
  { start: 1.4, end: 1.9, text: 'actualy' },
  { start: 1.9, end: 2.2, text: 'did' },
  { start: 2.2, end: 2.4, text: 'it,' },
  { start: 2.4, end: 2.6, text: 'one' },
  { start: 2.6, end: 3.0, text: 'versus' },
  { start: 3.0, end: 3.5, text: 'four.' },
  { start: 5.0, end: 5.3, text: 'Over' },
  { start: 5.3, end: 5.6, text: 'time' },
  { start: 5.6, end: 5.9, text: 'uhh' },
  { start: 5.9, end: 6.4, text: 'ace!' },
];

describe('the transcript editor and the streamer’s studio defaults', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let userId = '';

  beforeAll(async () => {
    server = await startE2eApp();
    browser = await launchBrowser(server.baseUrl, SIZES[0]);
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const db = () => server.app.deps.db;
  const editor = () => page.getByRole('region', { name: 'Transcript' });
  const word = (name: string) => editor().getByRole('button', { name: new RegExp(`^${name} at `) });
  const openWord = () => editor().getByRole('group', { name: /^Word \d+,/ });
  const toast = (text: string) => toastOn(page, text);

  async function transcriptOverApi(): Promise<ClipTranscript> {
    const response = await page.request.get(`/api/clips/${CLIP_ID}/transcript`);
    expect(response.status()).toBe(200);
    return (await response.json()) as ClipTranscript;
  }

  async function streamerOverApi(): Promise<Streamer> {
    const response = await page.request.get('/api/streamers');
    expect(response.status()).toBe(200);
    const streamer = ((await response.json()) as Streamer[]).find((entry) => entry.name === STREAMER);
    if (!streamer) throw new Error(`${STREAMER} is not listed`);
    return streamer;
  }

  /** Every width and theme, with no sideways scroll and no axe violation in any of them. */
  async function picturesOf(name: string, shown: () => Locator) {
    await waitForToastsGone(page);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        // Colours fade between themes: contrast is measured once they have arrived.
        await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
        await shown().waitFor();
        const label = `${name} at ${size.width} px, ${theme}`;
        expect(await horizontalOverflow(page), label).toBeLessThanOrEqual(0);
        expect(describeViolations(await axeViolations(page)), label).toEqual([]);
        await screenshot(page, `${name}-${size.width}-${theme}`);
      }
    }
    await page.setViewportSize(SIZES[0]);
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('signs up with a subtitled clip whose words were never edited', async () => {
    await register(page, USER);
    userId = (await db().selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow()).id;
    await seedStreamer(server.app.deps, userId, STREAMER, 'Shroud');
    const seeded = await seedClip(server.app.deps, userId, { clip_id: CLIP_ID, title: 'Ace in overtime', streamer_name: STREAMER });
    await db()
      .updateTable('clips')
      .set({
        duration: 8,
        subtitled: true,
        transcript: WORDS.map((entry) => entry.text).join(' '),
        transcript_words: JSON.stringify(WORDS),
        transcript_language: 'en',
      })
      .where('id', '=', seeded.id)
      .execute();
    expect((await transcriptOverApi()).edited).toBe(false);
  });

  it('lists the words with their times in lines split at pauses, fillers marked', async () => {
    await page.goto(`/app/clips/${CLIP_ID}/studio?tab=transcript`);
    await heading(page, 'Studio').waitFor();
    // The frame shows while the words load; the words arrive in it.
    await word('actualy').waitFor();
    const lines = editor().getByRole('list', { name: 'Transcript lines' }).getByRole('listitem');
    expect(await lines.count()).toBe(2);
    expect(await lines.nth(1).getByRole('button').allTextContents()).toEqual(['Over at 00:05.00', 'time at 00:05.30', 'uhh at 00:05.60 (filler)', 'ace! at 00:05.90']);
    await word('Um,').waitFor();
    expect(await word('Um,').textContent()).toContain('(filler)');
    expect(await editor().getByText('Edited', { exact: true }).count()).toBe(0);
    await editor().getByRole('button', { name: 'Delete fillers (2)' }).waitFor();
    expect(await editor().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await picturesOf('transcript', () => word('actualy'));
  });

  it('fixes a word, merges two, deletes a filler, undoes one step, and saves', async () => {
    // Fix a typo with the keyboard only: the chip opens, Enter keeps the text.
    await word('actualy').focus();
    await page.keyboard.press('Enter');
    const input = openWord().getByRole('textbox');
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    await input.fill('actually');
    await page.keyboard.press('Enter');
    await word('actually').waitFor();
    expect(await word('actually').evaluate((element) => element === document.activeElement)).toBe(true);

    // "Over" + "time" → "Overtime", spanning both.
    await word('Over').click();
    await openWord().getByRole('button', { name: 'Merge with next word' }).click();
    expect(await openWord().getByRole('textbox').inputValue()).toBe('Over time');
    await page.setViewportSize(SIZES[1]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'transcript-word-open-390');
    await page.setViewportSize(SIZES[0]);
    await openWord().getByRole('textbox').fill('Overtime');
    await page.keyboard.press('Enter');
    await word('Overtime').waitFor();

    // One filler by hand, and undo an accidental deletion.
    await word('Um,').click();
    await openWord().getByRole('button', { name: 'Delete word' }).click();
    await word('no').click();
    await openWord().getByRole('button', { name: 'Delete word' }).click();
    expect(await word('no').count()).toBe(0);
    await editor().getByRole('button', { name: 'Undo' }).click();
    await word('no').waitFor();
    expect(await word('Um,').count()).toBe(0);
    await editor().getByRole('button', { name: 'Delete fillers (1)' }).waitFor();
    await editor().getByText('Unsaved changes').waitFor();

    await editor().getByRole('button', { name: 'Save' }).click();
    await toast('Transcript saved').waitFor();
    await editor().getByText('Edited', { exact: true }).waitFor();
    const saved = await transcriptOverApi();
    expect(saved.edited).toBe(true);
    expect(saved.words.map((entry) => entry.text)).toEqual(['no', 'way', 'she', 'actually', 'did', 'it,', 'one', 'versus', 'four.', 'Overtime', 'uhh', 'ace!']);
    expect(saved.words[9]).toEqual({ start: 5.0, end: 5.6, text: 'Overtime' });
    expect(saved.words[3]).toEqual({ start: 1.4, end: 1.9, text: 'actually' });

    // Still there after a reload: the saved words, not speech recognition's.
    await page.reload();
    await word('Overtime').waitFor();
    expect(await word('actualy').count()).toBe(0);
  });

  it('splits a word and deletes the remaining fillers in bulk; an impossible transcript is refused inline', async () => {
    await word('Overtime').click();
    await openWord().getByRole('textbox').fill('Over time');
    await openWord().getByRole('button', { name: 'Split word' }).click();
    // The first half stays open, the second follows it.
    expect(await openWord().getByRole('textbox').inputValue()).toBe('Over');
    await word('time').waitFor();
    await page.keyboard.press('Escape');
    await word('Over').waitFor();
    await editor().getByRole('button', { name: 'Delete fillers (1)' }).click();
    expect(await word('uhh').count()).toBe(0);

    // An emptied word cannot be saved: the same words as the server's refusal, naming the word.
    await word('ace!').click();
    await openWord().getByRole('textbox').fill('   ');
    await page.keyboard.press('Enter');
    await editor().getByRole('button', { name: 'Save' }).click();
    await editor().getByRole('alert').getByText('Word 12 has no text: delete it instead').waitFor();
    await editor().getByRole('button', { name: 'Undo' }).click();
    expect(await editor().getByRole('alert').count()).toBe(0);

    await editor().getByRole('button', { name: 'Save' }).click();
    await toast('Transcript saved').waitFor();
    const saved = await transcriptOverApi();
    expect(saved.words.slice(9).map((entry) => entry.text)).toEqual(['Over', 'time', 'ace!']);
    expect(saved.words[9]?.start).toBe(5.0);
    expect(saved.words[10]?.end).toBe(5.6);
  });

  it('asks before transcribing again, warning that the edits are replaced', async () => {
    await editor().getByRole('button', { name: 'Transcribe again' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Transcribe again?' });
    await confirm.getByText('Your edits to this transcript are replaced').waitFor();
    await waitForToastsGone(page);
    // At the top: scrolled, the translucent navigation bar would pass over the studio's coloured
    // regions and axe would judge its links against them.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await screenshot(page, 'transcript-confirm-again');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await transcriptOverApi()).edited).toBe(true);
  });

  it('says when a clip has no transcript yet and offers to generate subtitles', async () => {
    await seedClip(server.app.deps, userId, { clip_id: 'NoWordsYet', title: 'Quiet clip', streamer_name: STREAMER });
    await page.goto('/app/clips/NoWordsYet/studio?tab=transcript');
    await page.getByText('No transcript yet').waitFor();
    await page.getByRole('button', { name: 'Generate subtitles' }).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
  });

  it('sets the streamer’s caption preset, glossary and loudness in the streamer dialog', async () => {
    await goVia(page, 'Streamers');
    await streamerCard(page, 'Shroud').getByRole('button', { name: `Edit ${STREAMER}` }).click();
    const dialog = editStreamerDialog(page);
    await dialog.waitFor();
    // The defaults of a streamer saved before the studio existed.
    expect(await dialog.getByRole('radio', { name: /^Classic/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('switch', { name: 'Normalise loudness (-14 LUFS)' }).getAttribute('aria-checked')).toBe('true');
    const glossary = dialog.getByRole('textbox', { name: 'Glossary' });
    // The glossary's own counter, beside its input (the clip creators field has one too).
    const glossaryCount = (text: string) => glossary.locator('xpath=..').getByText(text, { exact: true });
    await glossaryCount('0/100').waitFor();

    await dialog.getByRole('radio', { name: /^Bold/ }).check();
    await glossary.fill('Valorant');
    await glossary.press('Enter');
    await glossary.fill('PogChamp');
    await glossary.press('Enter');
    await glossary.fill('x'.repeat(51));
    await dialog.getByText('A glossary term is at most 50 characters').waitFor();
    await glossary.fill('KEKW, Sova');
    await glossary.press('Enter');
    await glossaryCount('4/100').waitFor();
    await dialog.getByRole('button', { name: 'Remove Sova' }).click();
    await glossaryCount('3/100').waitFor();
    await dialog.getByRole('switch', { name: 'Normalise loudness (-14 LUFS)' }).click();

    await dialog.getByText('Customise').click();
    await dialog.getByLabel('Size').fill('96');

    // A split layout needs the facecam region first: the dialog says where it is drawn.
    await dialog.getByRole('radio', { name: /^Facecam \+ gameplay/ }).check();
    await dialog.getByText('Draw the facecam region from one of this streamer’s clips').waitFor();
    await picturesOf('streamer-dialog-studio', () => dialog.getByText('Customise'));
    await dialog.getByRole('radio', { name: /^Blurred background/ }).check();

    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await toast('Streamer updated successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const streamer = await streamerOverApi();
    expect(streamer.caption_style).toEqual({ ...CAPTION_PRESET_STYLES.bold, size: 96 });
    expect(streamer.glossary).toEqual(['Valorant', 'PogChamp', 'KEKW']);
    expect(streamer.normalize_audio).toBe(false);
    expect(streamer.layout).toBe('blur');

    // Opened again, the dialog shows what was saved.
    await streamerCard(page, 'Shroud').getByRole('button', { name: `Edit ${STREAMER}` }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: /^Bold/ }).isChecked()).toBe(true);
    await dialog.getByRole('listitem').filter({ hasText: 'PogChamp' }).waitFor();
    expect(await dialog.getByRole('switch', { name: 'Normalise loudness (-14 LUFS)' }).getAttribute('aria-checked')).toBe('false');
    expect(browser.pageErrors).toEqual([]);
  });
});
