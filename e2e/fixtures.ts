import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { BROWSER_TIME_ZONE } from './time-zone';

export const ADMIN = { email: 'admin@admin.com', password: process.env.E2E_ADMIN_PASSWORD ?? 'Admin123!' };

/** What went wrong in the browser during one test, in any of its pages. */
interface BrowserProblems {
  errors: string[];
  /** Content Security Policy violations: the page event and the console's "Refused to ..." lines. */
  violations: string[];
}

const CSP_BINDING = '__atendeCspViolation';

/**
 * Watches every page of a context: console errors, uncaught exceptions and
 * Content Security Policy violations. The policy listener is installed before
 * any script of the page runs, so a violation while the app starts counts too.
 */
async function watchContext(context: BrowserContext, expectedHttpErrors: (number | string)[], problems: BrowserProblems): Promise<void> {
  // A number is an HTTP status; a string is a network error text (e.g. 'net::ERR_CONNECTION_REFUSED').
  const expected = expectedHttpErrors.map((entry) => (typeof entry === 'number' ? `status of ${entry} ` : entry));
  await context.exposeBinding(CSP_BINDING, ({ page }, text: string) => problems.violations.push(`${page.url()}: ${text}`));
  await context.addInitScript((binding) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as Record<string, (text: string) => void>)[binding];
      report?.(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} (${event.sourceFile || '?'}:${event.lineNumber})`);
    });
  }, CSP_BINDING);
  context.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const text = message.text();
    if (/Content[- ]Security[- ]Policy/i.test(text)) {
      problems.violations.push(text);
      return;
    }
    if (message.type() !== 'error') return;
    if (text.startsWith('Failed to load resource') && expected.some((e) => text.includes(e))) return;
    problems.errors.push(text);
  });
  context.on('weberror', (error) => problems.errors.push(error.error().message));
}

/**
 * Every test fails on a browser console error, an uncaught exception or a
 * Content Security Policy violation, in the test's page and in every page it
 * opens with `newPage`. A test that provokes an HTTP error on purpose (a wrong
 * password) names it in `expectedHttpErrors`, because the browser itself logs
 * failed responses.
 */
export const test = base.extend<{
  expectedHttpErrors: (number | string)[];
  browserProblems: BrowserProblems;
  /** A page in a context of its own (a second user), watched like the test's page and closed after the test. */
  newPage: (options?: BrowserContextOptions) => Promise<Page>;
}>({
  expectedHttpErrors: [[], { option: true }],
  browserProblems: [
    async ({ context, expectedHttpErrors }, use) => {
      const problems: BrowserProblems = { errors: [], violations: [] };
      await watchContext(context, expectedHttpErrors, problems);
      await use(problems);
      expect(problems.violations, 'Content Security Policy violations').toEqual([]);
      expect(problems.errors, 'browser console errors').toEqual([]);
    },
    { auto: true },
  ],
  newPage: async ({ browser, baseURL, viewport, expectedHttpErrors, browserProblems }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options) => {
      const context = await browser.newContext({ baseURL, viewport, timezoneId: BROWSER_TIME_ZONE, ...options });
      contexts.push(context);
      await watchContext(context, expectedHttpErrors, browserProblems);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
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

/** A call the test makes itself, straight to the API. */
export async function api<T>(baseURL: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A unique suffix for names and phone numbers of one test. */
export function uniqueStamp(): { text: string; digits: string } {
  const now = Date.now();
  return { text: now.toString(36), digits: String(now).slice(-8) };
}

/** Settles once the page's finite animations and transitions (a dialog fading in, a colour changing) have ended. */
export async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Waits until the page is no wider than `width`: nothing runs off a phone's screen. It polls
 * because the shell swaps its side menu for a drawer when React hears the media query change,
 * a moment after a resize (a busy machine measured the desktop's menu still beside the page).
 */
export async function expectNoSideScroll(page: Page, width: number, message?: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message }).toBeLessThanOrEqual(width);
}

/** The rules the browser tests hold every page to: WCAG 2.1 levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * WCAG 2.1 AA violations (axe) in the page's main region and in any open dialog, as
 * `rule at selector`. Waits first for animations to end: a dialog fading in has its texts
 * half transparent over a half dark backdrop, and would be judged midway.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await animationsEnded(page);
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).include('main');
  if ((await page.locator('[role="dialog"]').count()) > 0) builder.include('[role="dialog"]');
  const results = await builder.analyze();
  return results.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id} at ${node.target.join(' ')}`));
}

/**
 * Waits for every toast to leave. The tests share one server, so a live toast meant for the
 * admin (another test's ticket missing its response target) can come at any time; on a phone
 * it lies over a dialog's buttons, and a click aimed through it holds it (a pointer over a toast
 * pauses its timer). The pointer is moved off it first.
 */
export async function toastsGone(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await expect(page.locator('[data-toast]')).toHaveCount(0, { timeout: 10_000 });
}
