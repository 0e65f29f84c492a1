import type { Locator, Page } from 'playwright-core';

/** The settings screen's sections. */

/** "Connected accounts": the accounts of every platform together. */
export function accountsSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Connected accounts' });
}

/** A connected account's row in the wide table, by its display name. */
export function accountRow(page: Page, displayName: string): Locator {
  return accountsSection(page).getByRole('row', { name: displayName, exact: true });
}

/** A connected account's card in the narrow list (phones, tablets), by its display name. */
export function accountCard(page: Page, displayName: string): Locator {
  return accountsSection(page).getByRole('listitem', { name: displayName, exact: true });
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
