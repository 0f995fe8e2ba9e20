import { test as base, expect, type Page } from '@playwright/test';

export const ADMIN = { email: 'admin@admin.com', password: process.env.E2E_ADMIN_PASSWORD ?? 'Admin123!' };

/**
 * Every test fails on a browser console error or an uncaught exception. A test
 * that provokes an HTTP error on purpose (a wrong password) names it in
 * `expectedHttpErrors`, because the browser itself logs failed responses.
 */
export const test = base.extend<{ consoleErrors: string[]; expectedHttpErrors: (number | string)[] }>({
  expectedHttpErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, expectedHttpErrors }, use) => {
      const errors: string[] = [];
      // A number is an HTTP status; a string is a network error text (e.g. 'net::ERR_CONNECTION_REFUSED').
      const expected = expectedHttpErrors.map((entry) => (typeof entry === 'number' ? `status of ${entry} ` : entry));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = message.text();
        if (text.startsWith('Failed to load resource') && expected.some((e) => text.includes(e))) return;
        errors.push(text);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'browser console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export async function login(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/tickets$/);
}

/** A fresh token for API calls made by the test itself. */
export async function apiLogin(baseURL: string, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const response = await fetch(`${baseURL}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}
