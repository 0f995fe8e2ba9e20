import path from 'node:path';
import type { Page } from '@playwright/test';
import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';
import { COMPANY_TIME_ZONE, foreignTimeZone } from './time-zone';

/**
 * DECISIONS 7 and 15 in a browser whose zone is not the company's: every date a
 * person reads or types is the company's (São Paulo), and a calendar date such as
 * an invoice's due date is the same day everywhere.
 */
const browserZone = foreignTimeZone();
test.use({ timezoneId: browserZone });

const parts = (value: string | Date, timeZone = COMPANY_TIME_ZONE) => {
  const out: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  for (const part of format.formatToParts(new Date(value))) out[part.type] = part.value;
  return out as { year: string; month: string; day: string; hour: string; minute: string };
};
/** HH:mm and DD/MM/yyyy of an instant in the company's zone. */
const clock = (value: string | Date) => `${parts(value).hour}:${parts(value).minute}`;
const date = (value: string | Date) => `${parts(value).day}/${parts(value).month}/${parts(value).year}`;
/** The company's day `days` from today, `yyyy-MM-dd`. */
const companyDay = (days = 0) => {
  const p = parts(new Date(Date.now() + days * 86_400_000));
  return `${p.year}-${p.month}-${p.day}`;
};

async function shoot(page: Page, name: string): Promise<void> {
  const folder = path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
  await page.screenshot({ path: path.join(folder, `${name}.png`) });
}

test.describe(`time zones: the browser in ${browserZone}, the company in ${COMPANY_TIME_ZONE}`, () => {
  test('lists, bubbles, the calendar and schedules show the company time; a typed 22:09 stays 22:09', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const base = baseURL ?? '';
    const token = await apiLogin(base);
    const me = await api<{ id: number; company: { timezone: string } }>(base, token, 'GET', '/auth/me');
    expect(me.company.timezone).toBe(COMPANY_TIME_ZONE);
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(browserZone);

    const stamp = uniqueStamp();
    const name = `Fuso ${stamp.text}`;
    const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Fuso ${stamp.text}`, provider: 'sandbox' });
    const said = await api<{ ticketId: number }>(base, token, 'POST', `/sandbox/${connection.id}/inbound`, { from: `55319${stamp.digits}`, name, body: 'Que horas são aí?' });
    await api(base, token, 'PUT', `/tickets/${said.ticketId}`, { status: 'open', userId: me.id });
    const ticket = await api<{ uuid: string; updatedAt: string; contact: { id: number } }>(base, token, 'GET', `/tickets/${said.ticketId}`);
    const [message] = (await api<{ messages: { createdAt: string }[] }>(base, token, 'GET', `/messages/${said.ticketId}`)).messages;

    await login(page);
    await page.goto(`/tickets/${ticket.uuid}`);
    // The bubble's time and the day separator: the company's clock and day.
    await expect(page.getByTestId('message-item').filter({ hasText: 'Que horas são aí?' })).toBeVisible();
    await expect(page.locator(`time[datetime="${message!.createdAt}"]`)).toHaveText(clock(message!.createdAt));
    await expect(page.getByTestId('day-separator').last()).toHaveText(date(message!.createdAt));
    // The ticket list: updated today (the company's today) shows the company's HH:mm.
    const item = page.getByTestId('ticket-item').filter({ hasText: name });
    await expect(item.getByTestId('ticket-time')).toHaveText(clock(ticket.updatedAt));

    // A schedule typed 22:09 tomorrow (company time) is 22:09 everywhere it is shown.
    await page.getByTestId('ticket-options').click();
    await page.getByTestId('ticket-options-schedule').click();
    const dialog = page.getByTestId('schedule-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(COMPANY_TIME_ZONE);
    const typed = `${companyDay(1)}T22:09`;
    await page.getByTestId('schedule-body').fill(`Lembrete das 22:09 (${stamp.text})`);
    await page.getByTestId('schedule-send-at').fill(typed);
    await page.getByTestId('schedule-save').click();
    await expect(dialog).toHaveCount(0);
    const schedules = await api<{ schedules: { body: string; sendAt: string }[] }>(base, token, 'GET', `/schedules?searchParam=${encodeURIComponent(stamp.text)}`);
    const saved = schedules.schedules.find((s) => s.body.includes(stamp.text));
    // São Paulo keeps -03:00 all year: 22:09 there is 01:09 UTC the next day.
    expect(new Date(saved!.sendAt).toISOString()).toBe(new Date(`${typed}:00-03:00`).toISOString());

    await page.goto('/schedules');
    const event = page.getByTestId('schedule-event').filter({ hasText: name });
    await expect(event).toHaveCount(1);
    await expect(event).toContainText('22:09');
    // The calendar's today is the company's today, not the browser's.
    await expect(page.locator('.rbc-date-cell.rbc-now')).toHaveText(String(Number(companyDay().slice(8))).padStart(2, '0'));
    await event.click();
    await expect(page.getByTestId('schedule-send-at')).toHaveValue(typed);
    await page.keyboard.press('Escape');
    // At both widths the calendar lists it at 22:09 and fits the screen.
    for (const [size, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
      await page.setViewportSize(viewport);
      await expect(event).toContainText('22:09');
      // The calendar lays its rows out again after a resize (a measured layout): wait for it.
      await expectNoSideScroll(page, viewport.width);
      await shoot(page, `time-zone-schedules-${size}`);
    }
  });

  test.describe('a company past its due date', () => {
    // Its login is refused with 402 on purpose (the browser logs it).
    test.use({ expectedHttpErrors: [402] });

    test('an invoice due 2026-11-01 shows 01/11/2026, and so does the expired-subscription message', async ({ page, baseURL }) => {
      test.setTimeout(90_000);
      const base = baseURL ?? '';
      const superToken = await apiLogin(base);
      const stamp = uniqueStamp();
      const plan = await api<{ id: number }>(base, superToken, 'POST', '/plans', { name: `Fuso ${stamp.text}`, value: 99.9, users: 0, connections: 0, queues: 0 });
      const email = `fuso-${stamp.digits}@example.com`;
      const company = await api<{ id: number; dueDate: string }>(base, superToken, 'POST', '/companies', {
        name: `Fuso ${stamp.text}`,
        email,
        password: 'Owner123',
        planId: plan.id,
        dueDate: '2026-11-01',
      });
      expect(company.dueDate).toBe('2026-11-01');
      // Created on a priced plan with a due date that has come: its invoice is made at once.
      const invoice = await api<{ dueDate: string }>(base, superToken, 'POST', `/companies/${company.id}/invoices`, {});
      expect(invoice.dueDate).toBe('2026-11-01');

      for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
        await page.setViewportSize(viewport);
        await page.goto('/login');
        await page.getByTestId('login-email').fill(email);
        await page.getByTestId('login-password').fill('Owner123');
        await page.getByTestId('login-submit').click();
        await expect(page.getByTestId('login-error')).toContainText('01/11/2026');
        await page.getByTestId('login-pay').click();
        await expect(page).toHaveURL(/\/financeiro$/);
        const row = page.getByTestId('invoice-row').first();
        await expect(row).toContainText('01/11/2026');
        await expect(row).toHaveAttribute('data-status', 'expired');
        // The calendar lays its rows out again after a resize (a measured layout): wait for it.
      await expectNoSideScroll(page, viewport.width);
        await shoot(page, `time-zone-invoices-${viewport.width}`);
        await page.evaluate(() => localStorage.clear());
      }
    });
  });
});
