import path from 'node:path';
import type { Page } from '@playwright/test';
import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * Schedules end to end (issue 20): from a ticket's menu an agent schedules a
 * message for its contact; the outbound engine sends it through the sandbox
 * connection into the ticket, and the calendar shows it ENVIADA live.
 */

/** `yyyy-MM-ddTHH:mm` moved by some minutes (the input's value is a wall clock: plain arithmetic). */
function shiftLocal(value: string, minutes: number): string {
  return new Date(new Date(`${value}:00Z`).getTime() + minutes * 60_000).toISOString().slice(0, 16);
}

async function shoot(page: Page, name: string): Promise<void> {
  const folder = path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
  for (const [size, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    await page.setViewportSize(viewport);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('preferredTheme', value), theme);
      await page.goto('/schedules');
      await expect(page.getByTestId('schedule-event').first()).toBeVisible();
      await expectNoSideScroll(page, viewport.width);
      await page.screenshot({ path: path.join(folder, `${name}-${size === 'phone' ? 'phone-' : ''}${theme}.png`) });
    }
  }
}

test.describe('schedules', () => {
  test('schedules: a message scheduled from a ticket is sent into that ticket and shows ENVIADA on the calendar', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const base = baseURL ?? '';
    const token = await apiLogin(base);
    const stamp = uniqueStamp();
    const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Agenda ${stamp.text}`, provider: 'sandbox' });
    const number = `55219${stamp.digits}`;
    const said = await api<{ ticketId: number }>(base, token, 'POST', `/sandbox/${connection.id}/inbound`, { from: number, name: `Renata ${stamp.text}`, body: 'Pode me lembrar da consulta?' });
    const ticket = await api<{ uuid: string }>(base, token, 'GET', `/tickets/${said.ticketId}`);
    // A schedule for later, so the calendar has more than one state to show.
    const contactId = (await api<{ contact: { id: number } }>(base, token, 'GET', `/tickets/${said.ticketId}`)).contact.id;
    await api(base, token, 'POST', '/schedules', { body: 'Confirmação da semana que vem', contactId, sendAt: new Date(Date.now() + 2 * 3_600_000).toISOString() });

    await login(page);
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByTestId('ticket-options').click();
    await page.getByTestId('ticket-options-schedule').click();
    const dialog = page.getByTestId('schedule-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('schedule-contact')).toHaveValue(`Renata ${stamp.text}`);
    const text = `Sua consulta é amanhã às 9h (${stamp.text})`;
    await page.getByTestId('schedule-body').fill(text);
    // The default is an hour ahead (company time): moved to a minute ago, it is due at once.
    const defaultValue = await page.getByTestId('schedule-send-at').inputValue();
    await page.getByTestId('schedule-send-at').fill(shiftLocal(defaultValue, -61));
    await page.getByTestId('schedule-save').click();
    await expect(dialog).toHaveCount(0);

    // Sent into the ticket's conversation, and to the customer's phone.
    await expect(page.getByTestId('message-item').filter({ hasText: text })).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(async () => (await api<{ body: string }[]>(base, token, 'GET', `/sandbox/${connection.id}/outbox?number=${number}`)).filter((m) => m.body === text).length, { timeout: 30_000 })
      .toBe(1);

    // The calendar shows it sent; the title counts the loaded schedules.
    await page.goto('/schedules');
    await expect(page.getByTestId('schedules-title')).toContainText(/\(\d+\)/);
    const sent = page.getByTestId('schedule-event').filter({ hasText: `Renata ${stamp.text}` }).and(page.locator('[data-status="ENVIADA"]'));
    await expect(sent).toHaveCount(1, { timeout: 30_000 });
    // A sent schedule opens read-only.
    await sent.click();
    await expect(page.getByTestId('schedule-dialog-sent')).toBeVisible();
    await expect(page.getByTestId('schedule-save')).toBeDisabled();
    await page.keyboard.press('Escape');

    await shoot(page, 'schedules-calendar');
  });
});
