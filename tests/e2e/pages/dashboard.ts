import type { Locator, Page } from 'playwright-core';

/** The dashboard: Active Downloads and Quick Download. */

export function downloadsRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Active Downloads' });
}

/** A streamer's latest run in Active Downloads, by its title. */
export function runEntry(page: Page, title: string): Locator {
  return downloadsRegion(page).getByRole('listitem', { name: title, exact: true });
}

export function quickTile(page: Page, title: string): Locator {
  return page.getByRole('region', { name: 'Quick Download' }).getByRole('listitem', { name: title, exact: true });
}

export function statusBadge(scope: Locator): Locator {
  return scope.getByTestId('download-status');
}

/** Waits until the run status badge in `scope` reads exactly `label`. */
export async function waitForStatus(scope: Locator, label: string, timeout = 20_000): Promise<void> {
  await statusBadge(scope).filter({ hasText: new RegExp(`^${label}$`) }).waitFor({ timeout });
}

/** The disclosure over the runs that have ended: "Recent runs (N)". */
export function recentRunsToggle(page: Page): Locator {
  return downloadsRegion(page).getByRole('button', { name: /^Recent runs \(\d+\)$/ });
}

/** Opens Recent runs (closed on every visit of the dashboard) when it is there and closed. */
export async function showRecentRuns(page: Page): Promise<void> {
  const toggle = recentRunsToggle(page);
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await downloadsRegion(page).getByRole('list', { name: 'Recent runs' }).waitFor();
}
