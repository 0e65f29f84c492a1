import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, pathnameOf, screenshot, screenshotViewport, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { goVia, heading, navLink } from './pages/app.ts';
import { fillRegistration, logIn, logOut, registerForm } from './pages/auth.ts';

const ADMIN = { username: 'alice', password: 'correct horse battery' };
const SECOND = { username: 'bob_2', password: 'another long secret' };
const RENDER_TRACE = 'Error: ffmpeg exited with code 1\n    at render (server/src/media/render.ts:42:11)';

describe('signing up, signing in and the signed-in screens', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;
  let inviteCode = '';

  beforeAll(async () => {
    server = await startE2eApp({ REGISTRATION_MODE: 'invite' });
    browser = await launchBrowser(server.baseUrl);
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the landing page and plays the fake early-access form', async () => {
    await page.goto('/');
    await heading(page, /Turn Twitch clips into/).waitFor();
    await page.getByText('Limited beta · early access by request').waitFor();
    for (const title of ['Automatic conversion', 'Scheduled downloads', 'Complete control']) {
      await page.getByRole('heading', { name: title, exact: true }).waitFor();
    }
    for (const step of ['Add streamers', 'Set preferences', 'Start download', 'Share']) {
      await page.getByRole('heading', { name: step, exact: true }).waitFor();
    }
    expect(await page.getByRole('link', { name: 'Request Access' }).getAttribute('href')).toBe('#request-access');
    expect(await page.getByRole('link', { name: 'Learn More' }).getAttribute('href')).toBe('#features');
    // Both platforms it posts to, in the pitch and in the FAQ.
    await page.getByText('posts them to your TikTok accounts and YouTube channels', { exact: false }).waitFor();
    await page.getByText('Which platforms are supported?').click();
    await page.getByText('posted to TikTok and to YouTube as Shorts', { exact: false }).waitFor();
    await screenshot(page, 'landing');

    const form = page.getByRole('form', { name: 'Request early access' });
    const email = form.getByLabel('Email address');
    await email.fill('creator@example.com');
    await form.getByRole('button', { name: 'Request Access' }).click();
    await form.getByRole('button', { name: 'Submitting...' }).waitFor();
    await page.getByText("Thanks for your interest! We'll be in touch soon.").waitFor();
    expect(await email.inputValue()).toBe('');
  });

  it('serves both legal pages, dated and linking to each other', async () => {
    await page.goto('/tos');
    await heading(page, 'Terms of Service').waitFor();
    await page.getByText('Last updated: November 27, 2026').waitFor();
    await screenshot(page, 'terms');
    await page.getByRole('main').getByRole('link', { name: 'Privacy Policy' }).first().click();
    await heading(page, 'Privacy Policy').waitFor();
    expect(pathnameOf(page)).toBe('/privacy-policy');
    await page.getByText('Last updated: November 27, 2026').waitFor();
    await page.getByText(/Logs: 30 days/).waitFor();
    await page.getByRole('heading', { name: 'YouTube channel information' }).waitFor();
    await screenshot(page, 'privacy');
  });

  it('sends a signed-out visitor of /app to /login and back to the dashboard after registering', async () => {
    await page.goto('/app/streamers');
    await page.waitForURL('**/login');
    // No user exists yet: registration is open to the first one, without an invite code.
    await page.getByRole('tab', { name: 'Register' }).click();
    const form = registerForm(page);
    expect(await form.getByLabel('Invite code').count()).toBe(0);
    await screenshot(page, 'login-register-first-user');

    await form.getByRole('button', { name: 'Register' }).click();
    await form.getByText('Username and password are required').waitFor();

    await form.getByLabel('Username').fill(ADMIN.username);
    await form.getByLabel('Password').fill(ADMIN.password);
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL('**/app/streamers');
    await heading(page, 'Streamers').waitFor();
    await page.getByText('No streamers yet').waitFor();
    await screenshot(page, 'streamers');
  });

  it('shows the dashboard and clips screens with their empty states', async () => {
    await goVia(page, 'Dashboard');
    expect(pathnameOf(page)).toBe('/app');
    const addStreamers = page.getByRole('link', { name: 'Add Streamers' });
    expect(await addStreamers.getAttribute('href')).toBe('/app/streamers');
    await screenshot(page, 'dashboard');

    await goVia(page, 'Clips');
    await page.getByText('No Clips Found').waitFor();
    await screenshot(page, 'clips');
  });

  it('logs out, refuses a wrong password, and returns to the page that was asked for after login', async () => {
    await logOut(page);
    await page.goto('/app/logs');
    await page.waitForURL('**/login');

    await logIn(page, { username: ADMIN.username, password: 'not the password' });
    await page.getByText('Invalid username or password').waitFor();
    expect(pathnameOf(page)).toBe('/login');

    await logIn(page, ADMIN);
    await page.waitForURL('**/app/logs');
    await heading(page, 'System Logs').waitFor();
  });

  it('lists, searches and filters the log entries', async () => {
    // A system-wide failure with a stack trace: administrators see it, with the trace folded away.
    await server.app.deps.db
      .insertInto('logs')
      .values({ level: 'ERROR', logger: 'worker', message: 'Rendering clip Abc123 failed', exception: RENDER_TRACE })
      .execute();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Rendering clip Abc123 failed').waitFor();
    const trace = page.getByText('ffmpeg exited with code 1', { exact: false });
    expect(await trace.isVisible()).toBe(false);
    await page.getByText('Exception', { exact: true }).click();
    await trace.waitFor();

    const entries = page.getByTestId('log-entry');
    await page.getByText('alice registered as the first user and administrator').waitFor();
    await page.getByText(/Failed sign-in attempt for alice/).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Auto-refresh' }).getAttribute('aria-checked')).toBe('true');
    await page.getByText(/^Last updated: /).waitFor();
    const total = await entries.count();
    await screenshot(page, 'logs');

    await page.getByRole('searchbox', { name: 'Search logs' }).fill('SIGNED OUT');
    await page.getByText(`Showing 1 of ${total} logs (filtered)`).waitFor();
    expect(await entries.count()).toBe(1);

    await page.getByRole('searchbox', { name: 'Search logs' }).fill('no such words anywhere');
    await page.getByText('Try adjusting your filters to see more logs.').waitFor();
    await page.getByRole('searchbox', { name: 'Search logs' }).fill('');

    // The WARNING chip filters to the failed sign-in; a second click removes the filter.
    const warningChip = page.getByRole('group', { name: 'Log counts by level' }).getByRole('button', { name: /WARNING/ });
    await warningChip.click();
    await page.getByText(`Showing 1 of ${total} logs (filtered)`).waitFor();
    await page.getByText(/Failed sign-in attempt/).waitFor();
    await warningChip.click();
    await page.getByText(`Showing ${total} logs`, { exact: true }).waitFor();
  });

  it('generates and copies an invite code in Settings', async () => {
    await goVia(page, 'Settings');
    // Every section has loaded once the last one (the logs) has.
    await page.locator('[data-slot="card-title"]', { hasText: 'Recent Logs' }).waitFor();
    const headings = await page.locator('[data-slot="card-title"]').allTextContents();
    expect(headings.map((text) => text.replace('Coming soon', '').trim())).toEqual([
      'Connected accounts',
      'Twitch',
      'Invite Codes',
      'Processing',
      'Notifications',
      'API tokens',
      'Recent Logs',
    ]);
    await page.getByText('No Invite Codes').waitFor();
    const passkey = page.getByTestId('guest-passkey');
    await expect.poll(() => passkey.textContent()).toMatch(/^[A-Z0-9]{6}$/);
    const passkeyText = (await passkey.textContent()) ?? '';
    expect(await page.getByRole('link', { name: new RegExp(`/connect\\?passkey=${passkeyText}$`) }).getAttribute('href')).toBe(
      `/connect?passkey=${passkeyText}`,
    );

    await page.getByRole('button', { name: 'Generate Code' }).click();
    await page.getByText('Invite code generated successfully! Valid for 1 day.').waitFor();
    await screenshotViewport(page, 'toast');
    const row = page.getByTestId('invite-row').first();
    await row.waitFor();
    inviteCode = (await row.getByTestId('invite-code').textContent()) ?? '';
    expect(inviteCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){5}$/);
    await row.getByText('Active').waitFor();

    await row.getByRole('button', { name: /Copy invite code/ }).click();
    await page.getByText('Invite code copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inviteCode);

    await page.getByRole('button', { name: 'Copy passkey' }).click();
    const copiedToast = page.getByText('Passkey copied to clipboard!');
    await copiedToast.waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(passkeyText);
    // Toasts dismiss themselves (after 3 s and a fade); waiting for that keeps the page tidy.
    await copiedToast.waitFor({ state: 'detached' });

    const recentLogs = page.getByRole('list', { name: 'Recent logs' }).getByRole('listitem');
    expect(await recentLogs.count()).toBe(5);
    await screenshot(page, 'settings');
  });

  it('registers a second user with the invite code, who sees no invite codes', async () => {
    await logOut(page);
    const form = await fillRegistration(page, SECOND);
    await form.getByText('Accepted with or without dashes: XXXX-XXXX-XXXX-XXXX-XXXX-XXXX').waitFor();
    await form.getByRole('button', { name: 'Register' }).click();
    await form.getByText('Invite code is required for registration').waitFor();
    await screenshot(page, 'login-register-invite');

    // Typed in lower case and without dashes: the field shows it upper-cased, the server accepts it.
    const invite = form.getByLabel('Invite code');
    await invite.pressSequentially(inviteCode.replaceAll('-', '').toLowerCase());
    expect(await invite.inputValue()).toBe(inviteCode.replaceAll('-', ''));
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/app');
    await heading(page, 'Dashboard').waitFor();

    await navLink(page, 'Settings').click();
    await page.getByText('Only administrators can create and view invite codes.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Generate Code' }).count()).toBe(0);
    await screenshot(page, 'settings-member');
  });

  it('shows the login tabs to a signed-in user no more: /login goes on to the dashboard', async () => {
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/app');
    expect(browser.pageErrors).toEqual([]);
  });
});
