import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, login, test } from './fixtures';

/**
 * The app's Content Security Policy as the browser applies it, and the proof
 * that the shared fixture notices a violation (every other test relies on it
 * finding none).
 */

test('the browser refuses an injected inline script, and the fixture reports the violation', async ({ page, browserProblems }) => {
  const response = await page.goto('/login');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(response?.headers()['x-frame-options']).toBe('DENY');

  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true;';
    document.body.append(script);
  });
  await expect.poll(() => browserProblems.violations.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
  expect(browserProblems.violations.some((violation) => violation.includes('script-src'))).toBe(true);
  // Seen and expected: the fixture's own check at the end must not count it.
  browserProblems.violations.length = 0;

  // The app itself runs under that policy without a violation, and its one inline script (the boot
  // script, admitted by its hash) ran.
  await login(page);
  await expect(page.getByTestId('tickets-page')).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig?.jitless)).toBe(true);
});

test('the app cannot be framed by a page of another origin', async ({ page, baseURL, browserProblems }) => {
  // A real page on another port of the same machine: a fulfilled route would count as a public
  // page, and Chromium's local network rules would block the frame for that reason instead.
  const app = new URL(baseURL ?? '');
  const parent = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(`<iframe src="${app.origin}/login" title="framed"></iframe>`);
  });
  await new Promise<void>((resolve) => parent.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(parent.address() as AddressInfo).port}/`);
    // frame-ancestors 'none' (and X-Frame-Options DENY): Chromium puts its error page in the frame instead of the app.
    await expect.poll(() => page.frames()[1]?.url() ?? '').toMatch(/^chrome-error:/);
    await expect.poll(() => browserProblems.violations.join('\n')).toContain("frame-ancestors 'none'");
    browserProblems.violations.length = 0;
  } finally {
    parent.close();
  }
});
