import path from 'node:path';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * Contact lists and campaigns end to end (issue 20): a list imported from an
 * .xlsx, numbers checked on WhatsApp through the sandbox, a campaign to it whose
 * report reaches 100% delivered live, and each customer's phone got the message
 * and the attachment picked in the dialog.
 */

async function spreadsheet(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Each page at desktop and phone width, light and dark; nothing wider than the screen. */
async function shoot(page: Page, shots: [name: string, url: string, ready: string][]): Promise<void> {
  const folder = path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
  for (const [size, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    await page.setViewportSize(viewport);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('preferredTheme', value), theme);
      for (const [name, url, ready] of shots) {
        await page.goto(url);
        await expect(page.getByTestId(ready).first()).toBeVisible();
        await expectNoSideScroll(page, viewport.width);
        await page.screenshot({ path: path.join(folder, `${name}-${size === 'phone' ? 'phone-' : ''}${theme}.png`) });
      }
    }
  }
}

test.describe('campaigns', () => {
  test('campaigns: a list imported from a spreadsheet gets a campaign whose report reaches 100% delivered live', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const base = baseURL ?? '';
    const token = await apiLogin(base);
    const stamp = uniqueStamp();
    const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Campanhas ${stamp.text}`, provider: 'sandbox' });
    await api(base, token, 'POST', '/campaign-settings', { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 } });
    const numbers = [1, 2, 3].map((n) => `55319${stamp.digits.slice(0, 7)}${n}`);

    await login(page);
    await page.goto('/contact-lists');
    await page.getByTestId('contact-list-add').click();
    const listName = `Lista ${stamp.text}`;
    await page.getByTestId('contact-list-name').fill(listName);
    await page.getByTestId('contact-list-save').click();
    const row = page.getByTestId('contact-list-row').filter({ hasText: listName });
    await expect(row).toBeVisible();
    await row.getByTestId('contact-list-open').click();
    await expect(page.getByTestId('contact-list-items-title')).toContainText(listName);

    await page.getByTestId('contact-list-import-file').setInputFiles({
      name: 'contatos.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await spreadsheet([['nome', 'numero', 'email'], ['Ana Prado', numbers[0]!, 'ana@example.com'], ['Beto Reis', numbers[1]!, ''], ['Caio Luz', numbers[2]!, ''], ['X', '12', '']]),
    });
    const result = page.getByTestId('contact-list-import-result');
    await expect(result).toContainText('3');
    await expect(result).toContainText('2');
    await result.getByRole('button').click();
    await expect(page.getByTestId('contact-list-item-row')).toHaveCount(3);
    // Checked on WhatsApp through the connected sandbox, live.
    await expect(page.getByTestId('item-valid')).toHaveCount(3, { timeout: 30_000 });

    await page.goto('/campaigns');
    await page.getByTestId('campaign-add').click();
    const name = `Promo ${stamp.text}`;
    await page.getByTestId('campaign-name').fill(name);
    await page.getByTestId('campaign-message1').fill('Olá {nome}, temos novidades!');
    await page.getByTestId('campaign-whatsapp').locator('..').click();
    await page.getByRole('option', { name: `Campanhas ${stamp.text}` }).click();
    await page.getByTestId('campaign-contact-list').locator('..').click();
    await page.getByRole('option', { name: listName }).click();
    await page.getByTestId('campaign-attachment-file').setInputFiles({ name: 'folheto.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 folheto') });
    await expect(page.getByTestId('campaign-attachment')).toContainText('folheto.pdf');
    await page.getByTestId('campaign-save').click();
    const campaignRow = page.getByTestId('campaign-row').filter({ hasText: name });
    await expect(campaignRow.getByTestId('campaign-status')).toHaveAttribute('data-status', 'INATIVA');

    // Scheduled for now: it starts at once.
    const campaigns = await api<{ records: { id: number; name: string }[] }>(base, token, 'GET', `/campaigns?searchParam=${encodeURIComponent(name.toLowerCase())}`);
    const campaignId = campaigns.records[0]!.id;
    await page.goto(`/campaign/${campaignId}/report`);
    await expect(page.getByTestId('campaign-progress')).toBeVisible();
    await api(base, token, 'PUT', `/campaigns/${campaignId}`, { scheduledAt: new Date().toISOString() });
    await expect(page.getByTestId('campaign-progress')).toHaveAttribute('data-percent', '100', { timeout: 30_000 });
    await expect(page.getByTestId('campaign-delivered')).toHaveText('3');
    await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'FINALIZADA');

    for (const [index, number] of numbers.entries()) {
      const outbox = await api<{ body: string; mediaName: string | null }[]>(base, token, 'GET', `/sandbox/${connection.id}/outbox?number=${number}`);
      // The text, then the dialog's attachment.
      expect(outbox.map((m) => [m.body, m.mediaName])).toEqual([
        [`Olá ${['Ana Prado', 'Beto Reis', 'Caio Luz'][index]}, temos novidades!`, null],
        ['', 'folheto.pdf'],
      ]);
    }
    const listId = (await api<{ id: number; name: string }[]>(base, token, 'GET', '/contact-lists/list')).find((l) => l.name === listName)!.id;
    await shoot(page, [
      ['campaigns-list', '/campaigns', 'campaign-row'],
      ['campaign-report', `/campaign/${campaignId}/report`, 'campaign-progress'],
      ['contact-list-items', `/contact-lists/${listId}/contacts`, 'contact-list-item-row'],
    ]);
  });
});
