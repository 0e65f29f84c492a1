import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callerFor } from '../helpers/app.ts';
import { launchBrowser, pathnameOf, screenshot, startE2eApp, type E2eApp, type E2eBrowser } from './harness.ts';
import { heading, pageSettled } from './pages/app.ts';
import { logIn, loginForm } from './pages/auth.ts';

const USER = { username: 'carol', password: 'a long enough password' };
const PHONE = { width: 390, height: 844 };

describe('closed registration, redirects and the mobile menu', () => {
  let server: E2eApp;
  let browser: E2eBrowser;
  let page: Page;

  beforeAll(async () => {
    server = await startE2eApp({ REGISTRATION_MODE: 'closed' });
    // The first account may always register; after it, "closed" shuts registration.
    await callerFor(server.app.deps).api.auth.register(USER);
    browser = await launchBrowser(server.baseUrl, PHONE);
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('redirects unknown paths to the landing page', async () => {
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/');
    await heading(page, /Turn Twitch clips into/).waitFor();
    await screenshot(page, 'landing-mobile');
  });

  it('has a guest connect page that points existing users to login', async () => {
    await page.goto('/connect?passkey=ABC123');
    await heading(page, 'Connect your account').waitFor();
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
  });

  it('shows only a Login heading with a request-access link when registration is closed', async () => {
    await page.goto('/login');
    await heading(page, 'Login').waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Terms of Service' }).first().getAttribute('href')).toBe('/tos');
    expect(await page.getByRole('link', { name: 'Privacy Policy' }).first().getAttribute('href')).toBe('/privacy-policy');
    await screenshot(page, 'login-closed');

    await page.getByRole('link', { name: 'Request access' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.hash === '#request-access');
    await page.getByRole('heading', { name: 'Request early access' }).waitFor();
  });

  it('checks the login form before sending it', async () => {
    await page.goto('/login');
    const form = loginForm(page);
    await form.getByLabel('Username').fill('   ');
    await form.getByRole('button', { name: 'Login' }).click();
    await form.getByText('Username and password are required').waitFor();
  });

  it('folds the navigation into a menu that opens and navigates on a phone', async () => {
    await logIn(page, USER);
    await page.waitForURL((url) => url.pathname === '/app');
    await heading(page, 'Dashboard').waitFor();

    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await menu.waitFor();
    const labels = await menu.getByRole('link').allTextContents();
    expect(labels.map((label) => label.trim())).toEqual(['Dashboard', 'Streamers', 'Clips', 'Review', 'Moments', 'Queue', 'Logs', 'Settings']);
    await menu.getByRole('button', { name: 'Logout' }).waitFor();
    await screenshot(page, 'mobile-menu');

    await menu.getByRole('link', { name: 'Logs' }).click();
    await page.waitForURL('**/app/logs');
    await heading(page, 'System Logs').waitFor();
    expect(await page.getByRole('navigation', { name: 'Mobile' }).count()).toBe(0);
    await page.getByText('carol signed in').waitFor();
    await screenshot(page, 'logs-mobile');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Settings' }).click();
    await heading(page, 'Settings').waitFor();
    await screenshot(page, 'settings-mobile');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(pathnameOf(page)).toBe('/login');
    expect(await page.evaluate(() => window.localStorage.getItem('auth-state'))).toBeNull();
    expect(browser.pageErrors).toEqual([]);
  });

  it('signs the tab out at the first call the server refuses, and returns to that page after login', async () => {
    await logIn(page, USER);
    await page.waitForURL((url) => url.pathname === '/app');
    await heading(page, 'Dashboard').waitFor();
    // The dashboard's own first calls (the first-run checklist asks for clips and accounts once it
    // knows the streamers) must be answered before the session goes, or one of them is the first refusal.
    await pageSettled(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const logsLink = page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Logs' });
    await logsLink.waitFor();
    // The session ends on the server (expiry, sign-out elsewhere); this tab still believes it is signed
    // in. The click follows at once, so no dashboard poll comes first even on a loaded machine.
    await server.app.deps.db.deleteFrom('sessions').execute();
    await logsLink.click();
    await page.waitForURL('**/login');
    await heading(page, 'Login').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('auth-state'))).toBeNull();

    await logIn(page, USER);
    await page.waitForURL('**/app/logs');
    await heading(page, 'System Logs').waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
