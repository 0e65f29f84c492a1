import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/*
 * What every screen has: the main navigation, the toasts, page headings. Test files use these
 * instead of repeating selectors, so a changed label is changed in one place.
 */

export interface Credentials {
  username: string;
  password: string;
}

/** A toast (success, error or info) that contains `text`. */
export function toast(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}

/** A link of the signed-in top navigation. */
export function navLink(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
}

export function heading(page: Page, name: string | RegExp): Locator {
  return page.getByRole('heading', { level: 1, name });
}

/** Follows a top navigation link and waits for the screen's heading. */
export async function goVia(page: Page, link: string, title: string = link): Promise<void> {
  await navLink(page, link).click();
  await heading(page, title).waitFor();
}

/** Toasts are fixed to the viewport: the next picture or click waits until they have gone. */
export async function waitForToastsGone(page: Page): Promise<void> {
  // A pointer resting on a toast holds it on screen.
  await page.mouse.move(0, 0);
  await expect.poll(() => page.locator('[data-sonner-toast]').count()).toBe(0);
}

/**
 * Resolves once the app has no load or save under way (it marks <html data-pending> meanwhile) and
 * every picture on the page has arrived: the screen is what it will stay, for a check or a picture.
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-pending') && Array.from(document.images).every((image) => image.complete));
}

/**
 * Resolves once a request the page sends now has left it. Whatever the page had already set off,
 * from the last input or a timer that input queued, went out before it: a check after this proves
 * a call did not happen without sleeping on it.
 */
export async function pageRequestsFlushed(page: Page): Promise<void> {
  const marker = `/api/health?flushed=${Date.now()}`;
  const sent = page.waitForRequest((request) => request.url().endsWith(marker));
  await page.evaluate(async (url) => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await fetch(url);
  }, marker);
  await sent;
}

/** How far the page is wider than the window (0 or less: nothing spills sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

export function bodyOverflow(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).overflow);
}

/** Chooses an option of a (Radix) select by the combobox's and the option's names. */
export async function chooseOption(scope: Page | Locator, page: Page, comboboxName: string, optionName: string): Promise<void> {
  await scope.getByRole('combobox', { name: comboboxName }).click();
  await page.getByRole('option', { name: optionName, exact: true }).click();
}

/** One of the four looks every screen is checked in. */
export interface Look {
  width: number;
  theme: 'light' | 'dark';
}

const LOOK_SIZES = [
  [390, 844],
  [1366, 900],
] as const;

/**
 * Switches the page to each look in turn (390 and 1366 px, light and dark; `widest: true` starts at
 * 1366) and checks it there, once the theme has been applied.
 */
export async function inEachLook(page: Page, check: (look: Look) => Promise<void>, options: { widest?: boolean } = {}): Promise<void> {
  const sizes = options.widest ? [...LOOK_SIZES].reverse() : LOOK_SIZES;
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
      await check({ width, theme });
    }
  }
}
