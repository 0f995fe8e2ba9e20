import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { api, apiLogin, axeViolations, expect, expectNoSideScroll, login, test, toastsGone, uniqueStamp } from './fixtures';

/**
 * Event webhooks (issue 34 item 3): an admin subscribes a receiver this test runs on
 * loopback (the e2e server allows 127.0.0.1 through OUTBOUND_ALLOW_PRIVATE, as an operator
 * would for a service on the same host) in Settings → Webhooks, sees its signing secret
 * once, a ticket opened through the API reaches the receiver signed, the delivery shows
 * in the log; the receiver then answers 500, the log says so, and "send again" after it
 * recovers delivers the same event. Shown at 1440 px and 390 px, in pt, en and es.
 */

const screenshotsDir = () => path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; event: string; companyId: number; createdAt: string; data: Record<string, unknown> };
}

/** The outside system: records every POST and answers 200, or 500 while `failing`. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { failing: false };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, raw, body: JSON.parse(raw) as Received['body'] });
      response.statusCode = state.failing ? 500 : 200;
      response.setHeader('content-type', 'text/plain');
      response.end(state.failing ? 'receiver down for maintenance' : 'thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/atende-events`;
  return { url, received, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}


/** A new contact's open ticket on a new sandbox connection: the `ticket.created` event. */
async function openTicket(baseURL: string, token: string, name: string, number: string): Promise<{ id: number }> {
  const connection = await api<{ id: number }>(baseURL, token, 'POST', '/whatsapp', { name: `Sandbox ${uniqueStamp().text}`, provider: 'sandbox' });
  const contact = await api<{ id: number }>(baseURL, token, 'POST', '/contacts', { name, number });
  return api<{ id: number }>(baseURL, token, 'POST', '/tickets', { contactId: contact.id, whatsappId: connection.id, status: 'open' });
}

function signatureOf(secret: string, received: Received): string {
  const timestamp = String(received.headers['x-atende-timestamp']);
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.raw}`).digest('hex')}`;
}

test('webhooks: an admin subscribes a receiver, sees the secret once, events arrive signed, and a failed delivery is sent again', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript(() => {
      if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
    });
    const stamp = uniqueStamp();
    const base = baseURL ?? '';
    const token = await apiLogin(base);
    await login(page);
    await page.goto('/settings');
    await page.getByTestId('settings-tab-webhooks').click();
    await expect(page).toHaveURL(/tab=webhooks/);
    await expect(page.getByTestId('webhooks-tab')).toBeVisible({ timeout: 20_000 });

    await page.getByTestId('webhook-add').click();
    const dialog = page.getByTestId('webhook-dialog');
    await dialog.getByTestId('webhook-url').fill(receiver.url);
    await dialog.getByTestId('webhook-event-ticket.created').check();
    await dialog.getByTestId('webhook-event-ticket.updated').check();
    await dialog.getByTestId('webhook-description').fill(`CRM ${stamp.text}`);
    await dialog.getByTestId('webhook-save').click();
    await expect(dialog).toHaveCount(0);
    const secretDialog = page.getByTestId('webhook-secret-dialog');
    await expect(secretDialog).toBeVisible();
    const secret = await secretDialog.getByTestId('webhook-secret-value').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.screenshot({ path: `${screenshotsDir()}/webhook-secret.png` });
    await page.getByTestId('webhook-secret-done').click();
    await expect(secretDialog).toHaveCount(0);

    const row = page.locator(`[data-testid="webhook-row"][data-webhook-url="${receiver.url}"]`);
    await expect(row).toHaveAttribute('data-webhook-status', 'active', { timeout: 20_000 });
    // Shown once: neither the page nor a reload of it carries the secret again.
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await expect(row).toBeVisible({ timeout: 20_000 });
    expect(await page.content()).not.toContain(secret);

    // An event: a ticket opened through the API reaches the receiver, signed with the secret.
    const ticket = await openTicket(base, token, `Webhook ${stamp.text}`, `55419${stamp.digits.slice(1)}1`);
    const arrived = (event: string) => receiver.received.find((r) => r.body.event === event && r.body.data.id === ticket.id);
    await expect.poll(() => arrived('ticket.created') !== undefined, { timeout: 15_000 }).toBe(true);
    const first = arrived('ticket.created')!;
    expect(first.headers['x-atende-event-id']).toBe(first.body.id);
    expect(first.headers['x-atende-signature']).toBe(signatureOf(secret, first));

    // The log shows it delivered.
    await row.getByTestId('webhook-deliveries').click();
    const log = page.getByTestId('webhook-deliveries-dialog');
    const firstDelivery = log.locator(`[data-testid="webhook-delivery"][data-event-id="${first.body.id}"]`);
    await expect(firstDelivery).toHaveAttribute('data-delivery-status', 'delivered', { timeout: 20_000 });
    await expect(firstDelivery.getByTestId('webhook-delivery-summary')).toContainText('200');
    await expect(firstDelivery.getByTestId('webhook-delivery-excerpt')).toHaveText('thanks');

    // The receiver fails: the next event's delivery shows the 500 and its answer, live in the open log.
    receiver.state.failing = true;
    await api(base, token, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' });
    await expect.poll(() => arrived('ticket.updated') !== undefined, { timeout: 15_000 }).toBe(true);
    const failed = arrived('ticket.updated')!;
    const failedDelivery = log.locator(`[data-testid="webhook-delivery"][data-event-id="${failed.body.id}"]`);
    await expect(failedDelivery.getByTestId('webhook-delivery-summary')).toContainText('500', { timeout: 15_000 });
    await expect(failedDelivery.getByTestId('webhook-delivery-excerpt')).toHaveText('receiver down for maintenance');
    await expect(failedDelivery).not.toHaveAttribute('data-delivery-status', 'delivered');
    await page.screenshot({ path: `${screenshotsDir()}/webhook-deliveries-failed.png` });
    expect(await axeViolations(page)).toEqual([]);

    // It recovers; "send again" delivers the same event (same id) at once.
    receiver.state.failing = false;
    const before = receiver.received.length;
    await failedDelivery.getByTestId('webhook-delivery-retry').click();
    await expect.poll(() => receiver.received.slice(before).some((r) => r.body.id === failed.body.id), { timeout: 15_000 }).toBe(true);
    await expect(failedDelivery).toHaveAttribute('data-delivery-status', 'delivered', { timeout: 15_000 });
    const resent = receiver.received.slice(before).find((r) => r.body.id === failed.body.id)!;
    expect(resent.headers['x-atende-signature']).toBe(signatureOf(secret, resent));

    // The status filter.
    await log.getByTestId('webhook-deliveries-filter').click();
    await page.getByTestId('webhook-deliveries-filter-delivered').click();
    await expect(log.locator(`[data-testid="webhook-delivery"][data-event-id="${failed.body.id}"]`)).toBeVisible();
    await expect(log.locator('[data-testid="webhook-delivery"]:not([data-delivery-status="delivered"])')).toHaveCount(0);
    await page.screenshot({ path: `${screenshotsDir()}/webhook-deliveries.png` });
    await log.getByTestId('webhook-deliveries-close').click();
    await expect(log).toHaveCount(0);
    await page.screenshot({ path: `${screenshotsDir()}/webhooks.png` });

    // Turned off: no more deliveries; then deleted after the question.
    // The switch follows the server's answer, so it is clicked, not unchecked.
    await row.getByTestId('webhook-enabled').click();
    await expect(row).toHaveAttribute('data-webhook-status', 'paused', { timeout: 20_000 });
    await row.getByTestId('webhook-delete').click();
    await page.getByRole('dialog').getByRole('button').last().click();
    await expect(row).toHaveCount(0, { timeout: 20_000 });
  } finally {
    await receiver.close();
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const [language, addLabel] of [
    ['pt', 'Criar webhook'],
    ['en', 'Create webhook'],
    ['es', 'Crear webhook'],
  ] as const) {
    test(`webhooks: the tab, its dialog and the delivery log stay on screen at 390 px (${language})`, async ({ page, baseURL }) => {
      test.setTimeout(120_000);
      const base = baseURL ?? '';
      const token = await apiLogin(base);
      // A webhook with a delivery in its log (the receiver is down: the log shows the failed attempt).
      const hook = await api<{ id: number }>(base, token, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/nobody-listens', events: ['ticket.created'], description: `Phone ${language}` });
      const stamp = uniqueStamp();
      await openTicket(base, token, `Phone ${language} ${stamp.text}`, `55419${stamp.digits.slice(1)}2`);
      try {
        await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), language);
        await login(page);
        await page.goto('/settings?tab=webhooks');
        const add = page.getByTestId('webhook-add');
        await expect(add).toHaveText(addLabel, { timeout: 20_000 });
        const row = page.locator(`[data-testid="webhook-row"][data-webhook-id="${hook.id}"]`);
        await expect(row).toBeVisible({ timeout: 20_000 });
        const onScreen = async (locator: ReturnType<typeof page.getByTestId>) => {
          const box = await locator.boundingBox();
          expect(box, 'rendered').not.toBeNull();
          expect(box!.x).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width).toBeLessThanOrEqual(390);
        };
        await onScreen(add);
        await onScreen(row.getByTestId('webhook-enabled'));
        await onScreen(row.getByTestId('webhook-delete'));
        await expectNoSideScroll(page, 390);
        await page.screenshot({ path: `${screenshotsDir()}/webhooks-phone-${language}.png` });

        await add.click();
        const dialog = page.getByTestId('webhook-dialog');
        await onScreen(dialog.getByTestId('webhook-url'));
        await onScreen(dialog.getByTestId('webhook-save'));
        // Nothing filled in: the form says so and sends nothing.
        await dialog.getByTestId('webhook-save').click();
        await expect(dialog).toBeVisible();
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: `${screenshotsDir()}/webhook-dialog-phone-${language}.png` });
        await toastsGone(page);
        await dialog.getByTestId('webhook-cancel').click();
        await expect(dialog).toHaveCount(0);

        await row.getByTestId('webhook-deliveries').click();
        const log = page.getByTestId('webhook-deliveries-dialog');
        const delivery = log.getByTestId('webhook-delivery').first();
        await expect(delivery.getByTestId('webhook-delivery-summary')).toContainText(/\d/, { timeout: 15_000 });
        await onScreen(delivery.getByTestId('webhook-delivery-retry'));
        await onScreen(log.getByTestId('webhook-deliveries-close'));
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: `${screenshotsDir()}/webhook-deliveries-phone-${language}.png` });
        await log.getByTestId('webhook-deliveries-close').click();
      } finally {
        await api(base, token, 'DELETE', `/webhooks/${hook.id}`).catch(() => undefined);
      }
    });
  }
});
