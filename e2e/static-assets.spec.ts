import { expect, test } from './fixtures';

/**
 * Issue 30, item 10: the built web app reaches a phone compressed. Chromium loads the
 * app and every script it fetches comes as the build's brotli copy, cached for a year
 * (hashed names); the app shell itself is never cached stale.
 */
test('the app loads its scripts as brotli, cached for a year; the shell is revalidated', async ({ page }) => {
  const scripts: { url: string; encoding: string | undefined; cache: string | undefined }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/') && response.url().endsWith('.js')) {
      const headers = response.headers();
      scripts.push({ url: response.url(), encoding: headers['content-encoding'], cache: headers['cache-control'] });
    }
  });
  const shell = await page.goto('/login');
  expect(shell?.headers()['cache-control']).toBe('no-cache');
  await expect(page.getByTestId('login-email')).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    expect(script.encoding, script.url).toBe('br');
    expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
  }
});
