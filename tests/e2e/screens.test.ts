import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CLIP_FILES } from '../../server/src/domains/clips/files.ts';
import { createInvite } from '../../server/src/domains/invites/service.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, makeClipMedia, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, horizontalOverflow, pageSettled, waitForToastsGone } from './pages/app.ts';
import { logIn, logOut, register } from './pages/auth.ts';

/*
 * Every screen at a phone and a laptop width, in light and in dark: a picture of each
 * (tests/e2e/screenshots/<screen>-<width>-<theme>.png), no sideways scrolling, every action inside
 * the window, its own tab title, and zero axe violations.
 */

const USER = { username: 'robin', password: 'a long enough password' };
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;
const THEMES = ['light', 'dark'] as const;
type ThemeName = (typeof THEMES)[number];

interface Screen {
  name: string;
  path: string;
  title: string;
  heading: string | RegExp;
  signedIn: boolean;
  /** Brings up what the picture is of (a dialog, another view) once the screen is there. */
  open?: (page: Page) => Promise<void>;
  /** What else this screen promises, checked once it is there. */
  check?: (page: Page, label: string) => Promise<void>;
  /** Puts the screen back as the next one expects it. */
  close?: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  { name: 'landing', path: '/', title: 'Turn Twitch clips into TikToks and YouTube Shorts · Clipshift', heading: /Turn Twitch clips into/, signedIn: false },
  { name: 'login', path: '/login', title: 'Login · Clipshift', heading: 'Welcome to Clipshift', signedIn: false },
  { name: 'connect', path: '/connect', title: 'Connect an account · Clipshift', heading: 'Connect your account', signedIn: false },
  { name: 'terms', path: '/tos', title: 'Terms of Service · Clipshift', heading: 'Terms of Service', signedIn: false },
  { name: 'privacy', path: '/privacy-policy', title: 'Privacy Policy · Clipshift', heading: 'Privacy Policy', signedIn: false },
  { name: 'dashboard', path: '/app', title: 'Dashboard · Clipshift', heading: 'Dashboard', signedIn: true },
  { name: 'review', path: '/app/review', title: 'Review · Clipshift', heading: 'Review', signedIn: true },
  { name: 'streamers', path: '/app/streamers', title: 'Streamers · Clipshift', heading: 'Streamers', signedIn: true },
  { name: 'clips', path: '/app/clips', title: 'Clips · Clipshift', heading: 'Clips', signedIn: true, check: expectEvenShortCards },
  {
    name: 'clips-list',
    path: '/app/clips',
    title: 'Clips · Clipshift',
    heading: 'Clips',
    signedIn: true,
    open: (page) => page.getByRole('button', { name: 'List view' }).click(),
    close: (page) => page.getByRole('button', { name: 'Card view' }).click(),
  },
  {
    name: 'clip-details',
    path: '/app/clips',
    title: 'Clips · Clipshift',
    heading: 'Clips',
    signedIn: true,
    open: async (page) => {
      await page.getByRole('button', { name: 'Ace clutch in overtime' }).first().click();
      await page.getByRole('dialog').waitFor();
    },
    close: (page) => page.keyboard.press('Escape'),
  },
  {
    name: 'clip-options',
    path: '/app/clips',
    title: 'Clips · Clipshift',
    heading: 'Clips',
    signedIn: true,
    open: async (page) => {
      await page.getByRole('button', { name: 'Clip options' }).first().click();
      await page.getByRole('menuitem', { name: 'Download MP4' }).waitFor();
    },
    close: (page) => page.keyboard.press('Escape'),
  },
  {
    name: 'add-streamer',
    path: '/app/streamers',
    title: 'Streamers · Clipshift',
    heading: 'Streamers',
    signedIn: true,
    open: async (page) => {
      await page.getByRole('button', { name: 'Add Streamer' }).first().click();
      await page.getByRole('dialog').waitFor();
    },
    close: (page) => page.keyboard.press('Escape'),
  },
  {
    name: 'theme-menu',
    path: '/app',
    title: 'Dashboard · Clipshift',
    heading: 'Dashboard',
    signedIn: true,
    open: async (page) => {
      await page.getByRole('button', { name: /^Theme: / }).click();
      await page.getByRole('menuitemradio', { name: 'System' }).waitFor();
    },
    close: (page) => page.keyboard.press('Escape'),
  },
  {
    name: 'clip-studio',
    path: '/app/clips/AceClutch/studio',
    title: 'Studio · Clipshift',
    heading: 'Studio',
    signedIn: true,
    // The pictures come from ffmpeg: the screen is what it is once both are in.
    check: async (page) => {
      await page.getByTestId('source-frame').locator('img').waitFor();
      await page.getByTestId('preview-frame').locator('img').waitFor();
    },
  },
  { name: 'logs', path: '/app/logs', title: 'Logs · Clipshift', heading: 'System Logs', signedIn: true },
  { name: 'settings', path: '/app/settings', title: 'Settings · Clipshift', heading: 'Settings', signedIn: true },
];

/** Mixed 9:16 and 16:9 clips: one picture height for all, and cards far shorter than a phone screen. */
async function expectEvenShortCards(page: Page, label: string): Promise<void> {
  const cards = page.getByRole('list', { name: 'Clips' }).getByRole('listitem');
  await expect.poll(() => cards.count(), { message: label }).toBe(3);
  const frames = await cards.evaluateAll((items) =>
    items.map((item) => ({
      card: item.getBoundingClientRect().height,
      picture: item.querySelector('[data-format]')?.parentElement?.getBoundingClientRect().height ?? 0,
    })),
  );
  expect(new Set(frames.map((frame) => Math.round(frame.picture))).size, label).toBe(1);
  for (const frame of frames) expect(frame.card, label).toBeLessThan(400);
}

/** Buttons and links that sit outside the window sideways (unreachable without scrolling the page). */
function actionsOutsideWindow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const outside: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('main button, main a[href], main [role="button"], header button, header a[href]'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // A control inside a sideways scroller of its own (a chip row) is reached by that scroller.
      if (element.closest('[data-scroll-x]')) continue;
      if (box.left < -1 || box.right > window.innerWidth + 1) outside.push(`${element.textContent?.trim() || element.getAttribute('aria-label')} at ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
    return outside;
  });
}

/**
 * In dark mode, visible boxes painted (nearly) white: a colour that did not come from the theme.
 * Chromium reports computed colours as rgb() or as the oklch() they were written in.
 */
function lightSurfacesInDark(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const lightness = (color: string): number | null => {
      const oklch = /^oklch\(([\d.]+)%?\s+[\d.]+\s+[\d.]+(?:\s*\/\s*([\d.]+%?))?\)$/.exec(color);
      if (oklch) {
        const alpha = oklch[2] === undefined ? 1 : oklch[2].endsWith('%') ? Number.parseFloat(oklch[2]) / 100 : Number(oklch[2]);
        const l = Number(oklch[1]);
        return alpha < 0.5 ? null : l > 1 ? l / 100 : l;
      }
      const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(color);
      if (!rgb) return null;
      if (rgb[4] !== undefined && Number(rgb[4]) < 0.5) return null;
      return (0.2126 * Number(rgb[1]) + 0.7152 * Number(rgb[2]) + 0.0722 * Number(rgb[3])) / 255;
    };
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const box = element.getBoundingClientRect();
      // Panels, cards and tables; a button may be light on purpose (the primary one is, in dark).
      if (box.width < 120 || box.height < 60) continue;
      // Pictures and the landing page's phone mock-up carry their own colours on purpose.
      if (element.closest('img, video, svg, [data-illustration]')) continue;
      const value = lightness(getComputedStyle(element).backgroundColor);
      if (value !== null && value > 0.85) found.push(`${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`);
    }
    return found;
  });
}

/** Opens /app: the dashboard when signed in, else the login page it sends to. */
async function isSignedIn(page: Page): Promise<boolean> {
  await page.goto('/app');
  await page.getByRole('heading', { level: 1, name: /Dashboard|Welcome to Clipshift|Login/ }).waitFor();
  return new URL(page.url()).pathname === '/app';
}

async function signOut(page: Page, width: number): Promise<void> {
  if (width >= 768) return logOut(page);
  // On a phone, Logout sits in the folded menu.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Mobile' }).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}

async function setTheme(page: Page, theme: ThemeName): Promise<void> {
  // The app follows the system setting unless told otherwise: the system says which theme.
  await page.emulateMedia({ colorScheme: theme });
}

describe('every screen at 390 and 1366 px, light and dark', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let mediaDir: string;

  beforeAll(async () => {
    server = await startE2eApp();
    const { db } = server.app.deps;
    mediaDir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-screens-'));
    browser = await launchBrowser(server.baseUrl, WIDTHS[0]);
    page = browser.page;
    // The first account registers without a code and is the administrator: Settings shows everything.
    await register(page, USER);
    const user = await db.selectFrom('users').select('id').where('username', '=', USER.username).executeTakeFirstOrThrow();

    // Two streamers: two cards, each with its Linked accounts section.
    await seedStreamer(server.app.deps, user.id, 'pixelqueen', 'PixelQueen');
    await seedStreamer(server.app.deps, user.id, 'nightowl', 'NightOwl');
    const vertical = makeClipMedia(mediaDir, 360, 640);
    const horizontal = makeClipMedia(mediaDir, 640, 360);
    const clips = [
      { clip_id: 'AceClutch', title: 'Ace clutch in overtime', media: vertical, format: 'vertical' as const },
      { clip_id: 'TripleKill', title: 'Triple kill rush from the long corridor', media: horizontal, format: 'horizontal' as const },
      { clip_id: 'LateChat', title: 'Late night chat', media: vertical, format: 'vertical' as const },
    ];
    for (const clip of clips) {
      const { id, dir } = await seedClip(server.app.deps, user.id, { clip_id: clip.clip_id, title: clip.title, streamer_name: 'pixelqueen', video: clip.media.video });
      await writeFile(path.join(dir, CLIP_FILES.thumbnail), clip.media.thumbnail);
      await db.updateTable('clips').set({ format_type: clip.format }).where('id', '=', id).execute();
    }
    // The details show the rendered video's measured loudness (issue 20).
    await db.updateTable('clips').set({ loudness_integrated_lufs: -14.1, loudness_true_peak_dbtp: -1.2 }).where('clip_id', '=', 'AceClutch').execute();
    // One clip waits in the review inbox, so its screen shows a card.
    await db.updateTable('clips').set({ review_status: 'pending' }).where('clip_id', '=', 'LateChat').execute();
    const secret = server.app.deps.appSecret;
    await db
      .insertInto('accounts')
      .values({
        user_id: user.id,
        open_id: 'open-robin',
        display_name: 'Robin Clips',
        username: 'robinclips',
        avatar_url: null,
        access_token_enc: encryptSecret('access', secret),
        refresh_token_enc: encryptSecret('refresh', secret),
        access_expires_at: new Date(Date.now() + 86_400_000),
        refresh_expires_at: new Date(Date.now() + 30 * 86_400_000),
      })
      .execute();
    await createInvite(db, user.id, 1);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  async function checkScreen(screen: Screen, size: (typeof WIDTHS)[number], theme: ThemeName): Promise<void> {
    const label = `${screen.name} at ${size.width} (${theme})`;
    await page.goto(screen.path);
    await heading(page, screen.heading).waitFor();
    await pageSettled(page);
    await screen.open?.(page);
    await screen.check?.(page, label);
    await expect.poll(() => page.title(), { message: label }).toBe(screen.title);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), label).toBe(theme === 'dark');
    expect(await horizontalOverflow(page), label).toBeLessThanOrEqual(0);
    expect(await actionsOutsideWindow(page), label).toEqual([]);
    if (theme === 'dark') expect(await lightSurfacesInDark(page), label).toEqual([]);
    await waitForToastsGone(page);
    await screenshot(page, `${screen.name}-${size.width}-${theme}`);
    expect(describeViolations(await axeViolations(page)), label).toEqual([]);
    await screen.close?.(page);
  }

  // One test per screen, width and theme: each waits for one screen, so its limit is one screen's.
  for (const size of WIDTHS) {
    for (const theme of THEMES) {
      describe(`at ${size.width} px in ${theme}`, () => {
        beforeAll(async () => {
          await page.setViewportSize(size);
          await setTheme(page, theme);
        });
        afterAll(() => {
          expect(browser.pageErrors).toEqual([]);
        });

        for (const screen of SCREENS.filter((candidate) => !candidate.signedIn)) {
          it(`shows ${screen.name} signed out`, async () => {
            if (await isSignedIn(page)) await signOut(page, size.width);
            await checkScreen(screen, size, theme);
          });
        }

        for (const screen of SCREENS.filter((candidate) => candidate.signedIn)) {
          it(`shows ${screen.name} signed in`, async () => {
            if (!(await isSignedIn(page))) {
              await logIn(page, USER);
              await page.waitForURL((url) => url.pathname === '/app');
            }
            await checkScreen(screen, size, theme);
          });
        }
      });
    }
  }
});
