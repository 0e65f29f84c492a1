import type { Locator, Page } from 'playwright-core';

/** The settings screen's sections. */

export function tiktokSection(page: Page): Locator {
  return page.getByRole('region', { name: 'TikTok Accounts' });
}

/** A connected TikTok account's row, by its display name. */
export function tiktokAccountRow(page: Page, displayName: string): Locator {
  return tiktokSection(page).getByRole('row', { name: displayName, exact: true });
}

export function processingSection(page: Page) {
  const region = () => page.getByRole('region', { name: 'Processing' });
  return {
    region,
    model: () => region().getByRole('combobox', { name: 'Transcription model' }),
    concurrency: () => region().getByLabel('Concurrency'),
    save: () => region().getByRole('button', { name: 'Save' }),
    saveState: () => region().getByTestId('processing-save-state'),
  };
}

/** This browser's app-settings in localStorage. */
export async function appSettings(page: Page): Promise<Record<string, unknown>> {
  return JSON.parse((await page.evaluate(() => window.localStorage.getItem('app-settings'))) ?? '{}') as Record<string, unknown>;
}
