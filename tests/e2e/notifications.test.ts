import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations } from './axe.ts';
import { launchBrowser, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { chooseOption, goVia, horizontalOverflow, waitForToastsGone } from './pages/app.ts';
import { register } from './pages/auth.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const USER = { username: 'notified', password: 'a long enough password' };

describe('Settings › Notifications', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let receiverUrl = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.answer((request, response) => {
      if (request.path === '/broken') response.writeHead(500).end('receiver is broken');
      else response.writeHead(204).end();
    });
    receiverUrl = receiver.url('');
    // The receiver is on this machine: allowed by configuration only.
    server = await startE2eApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    browser = await launchBrowser(server.baseUrl, { width: 1366, height: 900 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  const section = () => page.getByRole('region', { name: 'Notifications', exact: true });
  const row = (text: string) => section().getByTestId('webhook-row').filter({ hasText: text });

  async function addWebhook(kind: string, path: string, events: { uncheck?: string[]; check?: string[] } = {}) {
    await section().getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await chooseOption(dialog, page, 'Kind', kind);
    await dialog.getByLabel('URL').fill(`${receiverUrl}${path}`);
    for (const name of events.uncheck ?? []) await dialog.getByRole('checkbox', { name }).uncheck();
    for (const name of events.check ?? []) await dialog.getByRole('checkbox', { name }).check();
    return dialog;
  }

  it('adds a signed JSON webhook, shows its secret once, and Test shows the receiver’s answer', async () => {
    await register(page, USER);
    await goVia(page, 'Settings');
    await section().getByText('No webhooks').waitFor();

    const dialog = await addWebhook('JSON (signed)', '/json', { check: ['Post published (post.published)'] });
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const generated = await dialog.getByLabel('Signing secret (optional)').inputValue();
    expect(generated).toMatch(/^[0-9a-f]{64}$/);
    expect(describeViolations(await axeViolations(page)), 'the add dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const shown = page.getByRole('dialog', { name: 'Save the signing secret' });
    expect(await shown.getByTestId('webhook-secret').inputValue()).toBe(generated);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const json = row('/json');
    await json.getByText('Not sent yet').waitFor();
    await json.getByText('run.failed, post.published, post.failed, account.reconnect').waitFor();
    await json.getByRole('button', { name: /^Test / }).click();
    await json.getByTestId('webhook-test-outcome').getByText('Receiver answered 204').waitFor();
    await json.getByText('HTTP 204').waitFor();
    const [test] = receiver.received;
    expect(JSON.parse(test!.body)).toMatchObject({ event: 'test' });
    expect(test!.headers['x-clipshift-signature']).toBe(`sha256=${createHmac('sha256', generated).update(test!.body).digest('hex')}`);
  });

  it('shows a failing receiver’s status with its error, refuses a bad URL in words', async () => {
    const dialog = await addWebhook('Discord', '/broken');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.waitFor({ state: 'detached' });
    const broken = row('/broken');
    await broken.getByRole('button', { name: /^Test / }).click();
    await broken.getByTestId('webhook-test-outcome').getByText('Receiver answered 500').waitFor();
    await broken.getByRole('button', { name: 'HTTP 500, last delivery failed: The receiver answered 500: receiver is broken' }).waitFor();
    expect(JSON.parse(receiver.received.at(-1)!.body)).toMatchObject({ content: expect.stringContaining('Test notification') });

    const bad = await addWebhook('Slack', '/x');
    await bad.getByLabel('URL').fill('ftp://example.com/hook');
    await bad.getByRole('button', { name: 'Add webhook' }).click();
    await bad.getByRole('alert').getByText('url must be an http:// or https:// address of at most 2000 characters').waitFor();
    await bad.getByRole('button', { name: 'Cancel' }).click();
    await bad.waitFor({ state: 'detached' });
  });

  it('fits 390 and 1366 px, light and dark, with no axe violations', async () => {
    await waitForToastsGone(page);
    for (const [width, height] of [[1366, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        await section().scrollIntoViewIfNeeded();
        await screenshot(page, `settings-notifications-${width}-${theme}`);
        expect(await horizontalOverflow(page), `${width} ${theme}`).toBe(0);
        expect(describeViolations(await axeViolations(page)), `${width} ${theme}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('deletes a webhook after confirmation', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await row('/broken').getByRole('button', { name: /^Delete / }).click();
    await row('/broken').waitFor({ state: 'detached' });
    await row('/json').waitFor();
    const left = await server.app.deps.db.selectFrom('webhooks').select('url').execute();
    expect(left.map((hook) => hook.url)).toEqual([`${receiverUrl}/json`]);
    expect(browser.pageErrors).toEqual([]);
  });
});
