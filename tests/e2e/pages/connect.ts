import type { Locator, Page } from 'playwright-core';

/** The guest connect page: the six passkey boxes. */

export function passkeyBox(page: Page, position: number): Locator {
  return page.getByLabel(`Passkey character ${position}`, { exact: true });
}

/** The boxes' characters, '_' for an empty one. */
export async function boxValues(page: Page): Promise<string> {
  const values: string[] = [];
  for (let position = 1; position <= 6; position += 1) values.push((await passkeyBox(page, position).inputValue()) || '_');
  return values.join('');
}

export function focusedLabel(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
}

/** A real paste: a ClipboardEvent carrying the text, dispatched on a box. */
export async function pasteInto(target: Locator, text: string): Promise<void> {
  await target.focus();
  await target.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

export function verifiedPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Passkey verified' });
}
