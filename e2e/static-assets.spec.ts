import type { Response } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * Issue 30, item 10: the built web app reaches a phone compressed. Chromium loads the
 * app and every script it fetches from 1 kB up (what the build precompresses) comes as
 * its brotli copy; every hashed script is cached for a year; the app shell itself is
 * revalidated on every load.
 */
test('the app loads its scripts as brotli, cached for a year; the shell is revalidated', async ({ page }) => {
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/') && response.url().endsWith('.js')) scripts.push(response);
  });
  const shell = await page.goto('/login');
  expect(shell?.headers()['cache-control']).toBe('no-cache');
  await expect(page.getByTestId('login-email')).toBeVisible();
  let compressed = 0;
  for (const script of scripts) {
    const headers = script.headers();
    expect(headers['cache-control'], script.url()).toBe('public, max-age=31536000, immutable');
    if ((await script.body()).length < 1024) continue;
    expect(headers['content-encoding'], script.url()).toBe('br');
    compressed += 1;
  }
  expect(compressed).toBeGreaterThan(0);
});
