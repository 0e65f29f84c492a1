import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { chooseOption, goVia, horizontalOverflow, inEachLook, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';

const USER = { username: 'tokenuser', password: 'a long enough password' };

describe('Settings › API tokens', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let shownToken = '';

  beforeAll(async () => {
    server = await startE2eApp();
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const section = () => page.getByRole('region', { name: 'API tokens', exact: true });
  const row = (name: string) => section().getByTestId('api-token-row').filter({ hasText: name });

  it('creates a token with the chosen scopes and expiry, shows it once with a copy button, and it works as a bearer token', async () => {
    await register(page, USER);
    await goVia(page, 'Settings');
    await section().getByText('No API tokens').waitFor();
    expect(await section().getByTestId('mcp-endpoint').textContent()).toBe(`${server.baseUrl}/api/mcp`);
    await section().getByRole('button', { name: 'Copy MCP address' }).waitFor();

    await section().getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    // The first account is the administrator: it is offered the admin scope.
    await dialog.getByRole('checkbox', { name: /^Admin: invite codes/ }).waitFor();
    await dialog.getByLabel('Name').fill('Claude Desktop');
    await dialog.getByRole('checkbox', { name: /^Write:/ }).check();
    await chooseOption(dialog, page, 'Expires', '30 days');
    expect(describeViolations(await axeViolations(page)), 'the create dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByRole('dialog', { name: 'Copy your new token' });
    await shown.getByText('You won’t see it again').waitFor();
    shownToken = await shown.getByTestId('api-token-value').inputValue();
    expect(shownToken).toMatch(/^cs_[a-z2-7]{24}_[a-z2-7]{32}$/);
    await shown.getByRole('button', { name: 'Copy token' }).waitFor();
    await screenshot(page, 'settings-api-token-shown-1366-light');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const listed = row('Claude Desktop');
    await listed.waitFor();
    expect(await listed.getByText('read', { exact: true }).count()).toBe(1);
    expect(await listed.getByText('write', { exact: true }).count()).toBe(1);
    await listed.getByText(/never used/).waitFor();
    await listed.getByText(/expires /).waitFor();
    // The value is nowhere on the page once the dialog is gone.
    expect(await page.content()).not.toContain(shownToken);

    const reply = await fetch(`${server.baseUrl}/api/streamers`, { headers: { authorization: `Bearer ${shownToken}` } });
    expect(reply.status).toBe(200);
    await page.reload();
    await row('Claude Desktop').getByText(/last used /).waitFor();
  });

  it('refuses a token without a name or scope in words, and fits 390 and 1366 px, light and dark, with no axe violations', async () => {
    await section().getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    await dialog.getByRole('checkbox', { name: /^Read:/ }).uncheck();
    await dialog.getByText('Choose at least one scope.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Create token' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await waitForToastsGone(page);
    await inEachLook(page, async ({ width, theme }) => {
      await section().scrollIntoViewIfNeeded();
      await row('Claude Desktop').waitFor();
      await screenshot(page, `settings-api-tokens-${width}-${theme}`);
      expect(await horizontalOverflow(page), `${width} ${theme}`).toBe(0);
      expect(describeViolations(await axeViolations(page)), `${width} ${theme}`).toEqual([]);
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await section().getByRole('button', { name: 'Create token' }).click();
    const narrow = page.getByRole('dialog', { name: 'Create API token' });
    await narrow.getByLabel('Name').waitFor();
    expect(describeViolations(await axeViolations(page)), 'the dialog at 390 dark').toEqual([]);
    await screenshot(page, 'settings-api-token-dialog-390-dark');
    await narrow.getByRole('button', { name: 'Cancel' }).click();
    await narrow.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('revokes a token after confirmation; it answers 401 from then on', async () => {
    await row('Claude Desktop').getByRole('button', { name: 'Revoke Claude Desktop' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this token?' });
    await confirm.getByText(/get 401 on their next request/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row('Claude Desktop').waitFor();

    await row('Claude Desktop').getByRole('button', { name: 'Revoke Claude Desktop' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Revoke token' }).click();
    await section().getByText('No API tokens').waitFor();
    const reply = await fetch(`${server.baseUrl}/api/streamers`, { headers: { authorization: `Bearer ${shownToken}` } });
    expect(reply.status).toBe(401);
    expect(await server.app.deps.db.selectFrom('api_tokens').select('id').execute()).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
