import type { Locator, Page } from 'playwright-core';
import type { Credentials } from './app.ts';

/** The login screen: its two forms and the flows through them. */

export function loginForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Login' });
}

export function registerForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Register' });
}

async function fillCredentials(form: Locator, user: Credentials): Promise<void> {
  await form.getByLabel('Username').fill(user.username);
  await form.getByLabel('Password').fill(user.password);
}

/** Fills the login form on the current page and submits it. */
export async function logIn(page: Page, user: Credentials): Promise<void> {
  const form = loginForm(page);
  await fillCredentials(form, user);
  await form.getByRole('button', { name: 'Login' }).click();
}

/** Opens the Register tab of the current login page and fills the form, without submitting it. */
export async function fillRegistration(page: Page, user: Credentials): Promise<Locator> {
  await page.getByRole('tab', { name: 'Register' }).click();
  const form = registerForm(page);
  await fillCredentials(form, user);
  return form;
}

/** Registers from /login (no invite code needed) and waits for the dashboard. */
export async function register(page: Page, user: Credentials): Promise<void> {
  await page.goto('/login');
  const form = await fillRegistration(page, user);
  await form.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL((url) => url.pathname === '/app');
}

export async function logOut(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}
