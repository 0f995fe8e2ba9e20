import path from 'node:path';
import type { Page } from '@playwright/test';
import { api, apiLogin, expect, login, test, uniqueStamp } from './fixtures';

/**
 * Internal chat and announcements (issue 22), in two browsers at once: a chat
 * created by one user reaches the other live (menu dot, top bar popover), the
 * reply comes back live; a super user's announcement reaches a user of another
 * company live in the top bar's popover.
 */
const screenshotsDir = () => path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));

/** The number in a badge button's aria-label, "N new ...", or the title alone when nothing is counted. */
async function badgeCount(page: Page, testId: string): Promise<number> {
  const label = (await page.getByTestId(testId).getAttribute('aria-label')) ?? '';
  return Number(/^(\d+)/.exec(label)?.[1] ?? 0);
}

test('chats: A creates a chat with B, B sees it live and replies with Enter, A sees the reply live', async ({ page, baseURL, newPage }) => {
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp();
  const ana = { name: `Ana ${stamp.text}`, email: `ana-${stamp.text}@example.com`, password: 'Chat1234' };
  const bruno = { name: `Bruno ${stamp.text}`, email: `bruno-${stamp.text}@example.com`, password: 'Chat1234' };
  for (const user of [ana, bruno]) await api(base, token, 'POST', '/users', { ...user, profile: 'user' });

  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, ana.email, ana.password);

  const other = await newPage({ viewport: { width: 1440, height: 900 } });
  await other.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
  await login(other, bruno.email, bruno.password);
  await other.goto('/contacts');
  await expect(other.getByTestId('chats-button')).toBeVisible();
  await expect(other.getByTestId('chats-unread-dot')).toHaveCount(0);

  // A starts the chat with B and writes (Enter sends).
  await page.goto('/chats');
  await page.getByTestId('chat-add').click();
  await page.getByTestId('chat-title').fill(`Plantão ${stamp.text}`);
  await page.getByTestId('chat-users').fill(bruno.name);
  await page.getByRole('option', { name: bruno.name }).click();
  await page.getByTestId('chat-save').click();
  await expect(page.getByTestId('chat-dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);
  const input = page.getByTestId('chat-input');
  // A blank message is not sent.
  await input.fill('   ');
  await expect(page.getByTestId('chat-send')).toBeDisabled();
  await input.fill(`Oi @${bruno.name}, pode cobrir o turno?`);
  await input.press('Enter');
  await expect(page.getByTestId('chat-message').filter({ hasText: 'pode cobrir o turno?' })).toBeVisible();
  await expect(input).toHaveValue('');

  // B, on another page, sees the unread dot and badge live; the popover lists the chat.
  await expect(other.getByTestId('chats-unread-dot')).toBeVisible();
  await expect.poll(() => badgeCount(other, 'chats-button')).toBe(1);
  await other.getByTestId('chats-button').click();
  const item = other.getByTestId('chats-popover-item').filter({ hasText: `Plantão ${stamp.text}` });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('data-unread', '1');
  const uuid = await item.getAttribute('data-chat-uuid');
  // Opening it is a full page load of /chats/{uuid} (spec part 1 §2).
  await Promise.all([other.waitForEvent('load'), item.click()]);
  await expect(other).toHaveURL(new RegExp(`/chats/${uuid}$`));
  const mention = other.getByTestId('chat-message').filter({ hasText: 'pode cobrir o turno?' });
  await expect(mention).toBeVisible();
  // The mention of B is highlighted for B.
  await expect(mention.getByTestId('mention-me')).toHaveText(`@${bruno.name}`);
  // Reading it clears B's unread count.
  await expect(other.getByTestId('chats-unread-dot')).toHaveCount(0);
  await expect.poll(() => badgeCount(other, 'chats-button')).toBe(0);

  // B replies with Enter; Shift+Enter makes a new line first.
  const reply = other.getByTestId('chat-input');
  await reply.fill('Posso sim!');
  await reply.press('Shift+Enter');
  await reply.pressSequentially('Chego às 14h.');
  await expect(reply).toHaveValue('Posso sim!\nChego às 14h.');
  await reply.press('Enter');
  await expect(other.getByTestId('chat-message').filter({ hasText: 'Chego às 14h.' })).toBeVisible();

  // A sees it live in the open chat.
  const received = page.getByTestId('chat-message').filter({ hasText: 'Chego às 14h.' });
  await expect(received).toBeVisible();
  await expect(received.getByTestId('chat-message-text')).toHaveText('Posso sim!\nChego às 14h.');
  await expect(page.getByTestId('chat-list-item').filter({ hasText: `Plantão ${stamp.text}` })).toContainText('Chego às 14h.');

  // The chat page, light and dark; on a phone, the messages tab of the two.
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') await page.getByTestId('theme-toggle').click();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(screenshotsDir(), `chats-${theme}.png`) });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('chat-tab-messages')).toHaveAttribute('aria-selected', 'true');
    await expect(received).toBeVisible();
    await page.screenshot({ path: path.join(screenshotsDir(), `chats-phone-${theme}.png`) });
  }
  await page.getByTestId('chat-tab-list').click();
  await expect(page.getByTestId('chat-list-item').filter({ hasText: `Plantão ${stamp.text}` })).toBeVisible();
  await page.getByTestId('theme-toggle').click();
});

test('announcements: a super user publishes one and a user of another company sees it live in the top bar', async ({ page, baseURL, newPage }) => {
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp();
  const plan = await api<{ id: number }>(base, token, 'POST', '/plans', { name: `Plano avisos ${stamp.text}`, users: 5, connections: 5, queues: 5 });
  const reader = { email: `leitor-${stamp.text}@example.com`, password: 'Aviso1234' };
  await api(base, token, 'POST', '/companies', { name: `Outra empresa ${stamp.text}`, planId: plan.id, ...reader });

  const other = await newPage({ viewport: { width: 1280, height: 800 } });
  await other.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
  await login(other, reader.email, reader.password);
  await other.goto('/contacts');
  await expect(other.getByTestId('announcements-button')).toBeVisible();
  // Opened once and closed: seen, so the count starts at 0.
  await other.getByTestId('announcements-button').click();
  await expect(other.getByTestId('announcements-popover')).toBeVisible();
  await other.keyboard.press('Escape');
  await expect.poll(() => badgeCount(other, 'announcements-button')).toBe(0);

  // The super user publishes from the announcements page.
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page);
  await page.goto('/announcements');
  await page.getByTestId('announcement-add').click();
  await page.getByTestId('announcement-save').click();
  // Title and text are required ('Campo obrigatório').
  await expect(page.getByTestId('announcement-dialog').getByText('Campo obrigatório').first()).toBeVisible();
  const title = `Manutenção programada ${stamp.text}`;
  await page.getByTestId('announcement-title').fill(title);
  await page.getByTestId('announcement-text').fill('O sistema ficará indisponível no domingo das 22h às 23h.');
  await page.getByTestId('announcement-priority').click();
  await page.getByTestId('announcement-priority-1').click();
  await page.getByTestId('announcement-save').click();
  await expect(page.getByTestId('announcement-dialog')).toHaveCount(0);
  await expect(page.getByTestId('announcement-row').filter({ hasText: title })).toContainText('Alta');

  // The other company's user sees it arrive: the count, then the popover.
  await expect.poll(() => badgeCount(other, 'announcements-button')).toBe(1);
  await other.getByTestId('announcements-button').click();
  const item = other.getByTestId('announcement-item').filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('data-priority', '1');
  await expect(item).toContainText('indisponível no domingo');
  await expect.poll(() => badgeCount(other, 'announcements-button')).toBe(0);

  // The popover, light and dark.
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') {
      await other.keyboard.press('Escape');
      await expect(other.getByTestId('announcements-popover')).toHaveCount(0);
      await other.getByTestId('theme-toggle').click();
      await other.getByTestId('announcements-button').click();
    }
    await expect(item).toBeVisible();
    await expect(other.locator('.MuiPopover-paper')).toHaveCSS('opacity', '1');
    await other.screenshot({ path: path.join(screenshotsDir(), `announcements-popover-${theme}.png`) });
  }

  // A user who is not a super user is turned away from the page.
  await other.keyboard.press('Escape');
  await other.goto('/announcements');
  await expect(other).toHaveURL(new URL('/', other.url()).href);
  await expect(other.getByTestId('announcement-add')).toHaveCount(0);
});
