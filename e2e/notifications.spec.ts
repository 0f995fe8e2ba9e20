import path from 'node:path';
import type { Page } from '@playwright/test';
import { api, apiLogin, expect, login, test, uniqueStamp } from './fixtures';

/**
 * The top bar's notifications (issue 18): a customer's first message makes a
 * pending ticket that shows live in the bell's popover, on any page, with the
 * count in the tab title; clicking it opens the ticket.
 */
test('notifications: a new pending ticket shows live in the bell popover and opens its ticket', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp();
  const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Sandbox ${stamp.text}`, provider: 'sandbox' });
  const name = `Cliente Sino ${stamp.text}`;

  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await login(page);
  // Away from the tickets screen: the bell alone has to tell, and on a phone too.
  await page.setViewportSize({ width: 390, height: 844 });
  // The bell's count is known once its two lists (pending, open with unread) have answered (and a whole count, for a list longer than its page).
  let listsAnswered = 0;
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/tickets') listsAnswered += 1;
  });
  await page.goto('/contacts');
  const bell = page.getByTestId('notifications-button');
  await expect(bell).toBeVisible();
  await expect.poll(() => listsAnswered).toBeGreaterThanOrEqual(2);
  await page.waitForTimeout(300);
  const before = await bellCount(page);

  // The customer writes from the sandbox phone's test route.
  await api(base, token, 'POST', `/sandbox/${connection.id}/inbound`, { from: `55419${stamp.digits}`, name, body: 'Olá, alguém pode me ajudar?' });
  await expect.poll(() => bellCount(page)).toBe(before + 1);
  await expect(page).toHaveTitle(`(${before + 1}) Atende`);

  await bell.click();
  const item = page.getByTestId('notification-item').filter({ hasText: name });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Waiting');
  await expect(item).toContainText('alguém pode me ajudar');
  // The popover fits the phone's screen.
  const box = await page.getByTestId('notifications-popover').boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await shoot(page, 'notifications');

  const uuid = await item.getAttribute('data-ticket-uuid');
  await item.click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${uuid}$`));
  await expect(page.getByTestId('message-item').filter({ hasText: 'alguém pode me ajudar' })).toBeVisible();
});

/** The bell's count: its aria-label starts with N ("3 notifications"), or is the title alone when nothing is counted. */
async function bellCount(page: Page): Promise<number> {
  const label = (await page.getByTestId('notifications-button').getAttribute('aria-label')) ?? '';
  return Number(/^(\d+)/.exec(label)?.[1] ?? 0);
}

/** The open popover, light and dark (e2e/artifacts/screenshots, or docs/screenshots when E2E_SCREENSHOTS_DIR says so). */
async function shoot(page: Page, name: string): Promise<void> {
  const folder = path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') {
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('notifications-popover')).toHaveCount(0);
      await page.getByTestId('theme-toggle').click();
      await page.getByTestId('notifications-button').click();
    }
    await expect(page.getByTestId('notification-item').first()).toBeVisible();
    // After the popover's fade-in.
    await expect(page.locator('.MuiPopover-paper')).toHaveCSS('opacity', '1');
    await page.screenshot({ path: path.join(folder, `${name}-phone-${theme}.png`) });
  }
}
