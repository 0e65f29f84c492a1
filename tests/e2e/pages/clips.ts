import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chooseOption } from './app.ts';

/** The clips screen: the card grid, the list view, the details modal and the post wizard. */

export function clipGrid(page: Page): Locator {
  return page.getByRole('list', { name: 'Clips' });
}

export function clipCard(page: Page, title: string): Locator {
  return clipGrid(page).getByRole('listitem', { name: title, exact: true });
}

export function clipTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Clips' });
}

export function clipRow(page: Page, title: string): Locator {
  return clipTable(page).getByRole('row', { name: title, exact: true });
}

/** The details modal (the one dialog with a video player). */
export function detailsDialog(page: Page): Locator {
  return page.getByRole('dialog').filter({ has: page.locator('video') });
}

export function confirmDialog(page: Page): Locator {
  return page.getByRole('alertdialog');
}

/** The cards' titles, in the order shown. */
export function cardTitles(page: Page): Promise<(string | null)[]> {
  return clipGrid(page)
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
}

export async function expectCards(page: Page, titles: string[]): Promise<void> {
  await expect.poll(() => cardTitles(page)).toEqual(titles);
}

/** The post wizard, step by step. */
export function postWizard(page: Page) {
  const dialog = () => page.getByRole('dialog', { name: 'Post clip' });
  const wizard = {
    dialog,
    next: () => dialog().getByRole('button', { name: 'Next', exact: true }),
    previous: () => dialog().getByRole('button', { name: 'Previous', exact: true }),
    post: () => dialog().getByRole('button', { name: 'Post Clip' }),
    accountCheckbox: (handle: string) => dialog().getByRole('checkbox', { name: new RegExp(handle.replace('.', '\\.')) }),
    async expectStep(step: number, label: string) {
      await dialog().getByText(`Step ${step} of 4: ${label}`).waitFor();
      expect(await dialog().locator('[aria-current="step"]').textContent()).toContain(String(step));
    },
    /** Opens the wizard of a clip from its card, at step 1. */
    async open(title: string) {
      await clipCard(page, title).getByRole('button', { name: 'Post', exact: true }).click();
      await wizard.expectStep(1, 'Clip Preview');
    },
    /** Steps 1 to 3 with the defaults: the prefilled description, one account, a privacy level. */
    async walkToReview(handle: string, privacy: string) {
      await wizard.next().click();
      await wizard.expectStep(2, 'Add Description');
      await wizard.next().click();
      await wizard.expectStep(3, 'Select Accounts');
      await wizard.accountCheckbox(handle).check();
      await choosePrivacy(page, dialog(), privacy);
      await wizard.next().click();
      await wizard.expectStep(4, 'Review & Post');
    },
    async close() {
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
    },
  };
  return wizard;
}

/** Chooses who can view the post, in the wizard or the details modal. */
export async function choosePrivacy(page: Page, scope: Locator, label: string): Promise<void> {
  await chooseOption(scope, page, 'Who can view this post', label);
}
