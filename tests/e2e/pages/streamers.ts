import type { Locator, Page } from 'playwright-core';

/** The streamers screen: cards, the add/edit dialog, the accounts dialog. */

export function streamerList(page: Page): Locator {
  return page.getByRole('list', { name: 'Streamers' });
}

/** A streamer's card by its title (Twitch's display name when it only changes the case). */
export function streamerCard(page: Page, title: string): Locator {
  return streamerList(page).getByRole('listitem', { name: title, exact: true });
}

export function addStreamerDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Add Streamer' });
}

export function editStreamerDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Edit Streamer' });
}

export function accountsDialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: `Accounts for ${title}` });
}
