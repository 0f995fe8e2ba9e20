import { apiLogin, expect, expectNoSideScroll, login, test } from './fixtures';

/**
 * The connections page (spec part 2 §2.2) end to end: a connection made in the
 * dialog, its session status changing live, the QR dialog showing a code and
 * closing by itself once the phone pairs, and deletion through the UI.
 *
 * No WhatsApp is reachable from a test: the session's part is played through
 * `POST /test/connections/:id/session` (NODE_ENV=test only), which writes the
 * status and emits the same events a provider does. The connection is a
 * sandbox one, which runs no session that would write its own statuses.
 */

/** Calls the test makes itself go straight to the API (in CI the API serves the web app too). */
const apiUrl = (baseURL: string | undefined) => process.env.E2E_API_URL ?? baseURL ?? '';

async function pushSession(base: string, token: string, id: number, state: { status: string; qrcode: string }): Promise<void> {
  const response = await fetch(`${base}/test/connections/${id}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(state),
  });
  if (!response.ok) throw new Error(`session ${id}: ${response.status} ${await response.text()}`);
}

/**
 * Pushes a session state until the page shows it. Writing the same state again
 * is harmless, and it covers a page whose socket was not yet subscribed when
 * the first push went out (the first push follows the page's load closely).
 */
async function pushUntilShown(push: () => Promise<void>, shown: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await push();
    await shown();
  }).toPass({ timeout: 15_000, intervals: [500, 1000, 2000] });
}

test('connections: add in the dialog, live QR code and pairing, delete', async ({ page, baseURL }) => {
  const api = apiUrl(baseURL);
  const token = await apiLogin(api);
  const name = `Loja ${Date.now().toString(36)}`;

  await login(page);
  await page.goto('/connections');

  // Add through the connection dialog, choosing the simulated phone as provider.
  await page.getByTestId('connection-add').click();
  const dialog = page.getByTestId('connection-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('connection-name').fill(name);
  await dialog.getByTestId('connection-provider').click();
  await page.getByTestId('connection-provider-sandbox').click();
  await dialog.getByTestId('connection-save').click();
  await expect(dialog).toHaveCount(0);

  const row = page.getByTestId('connection-row').filter({ hasText: name });
  await expect(row).toHaveAttribute('data-status', 'CONNECTED');
  const id = Number(await row.getAttribute('data-connection-id'));
  expect(id).toBeGreaterThan(0);

  // The session asks for a QR code: the row changes live and offers the QR button.
  const code = `2@e2e-${Date.now()},qr-code-value`;
  await pushUntilShown(
    () => pushSession(api, token, id, { status: 'qrcode', qrcode: code }),
    () => expect(row).toHaveAttribute('data-status', 'qrcode', { timeout: 2000 }),
  );
  await row.getByTestId('connection-qr').click();
  const qr = page.getByTestId('qr-dialog');
  await expect(qr).toBeVisible();
  await expect(qr.getByTestId('qr-image')).toHaveAttribute('data-qr-value', code);

  // A new code replaces the shown one.
  const next = `${code}-2`;
  await pushSession(api, token, id, { status: 'qrcode', qrcode: next });
  await expect(qr.getByTestId('qr-image')).toHaveAttribute('data-qr-value', next);

  // Paired: the code empties, the dialog closes by itself and the row says connected.
  await pushSession(api, token, id, { status: 'CONNECTED', qrcode: '' });
  await expect(qr).toHaveCount(0);
  await expect(row).toHaveAttribute('data-status', 'CONNECTED');
  await expect(row.getByTestId('connection-disconnect')).toBeVisible();

  // The server makes the external API token: Generate only asks for one, and the dialog shows what the server made.
  await row.getByTestId('connection-edit').click();
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('connection-token-generate').click();
  const asked = await dialog.getByTestId('connection-token').inputValue();
  await dialog.getByTestId('connection-save').click();
  const issued = page.getByTestId('connection-token-issued-dialog');
  await expect(issued).toBeVisible();
  const shown = await issued.getByTestId('connection-token-issued-value').inputValue();
  const stored = (await (await fetch(`${api}/whatsapp/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { token: string };
  expect(shown).toBe(stored.token);
  expect(shown).not.toBe(asked);
  await issued.getByTestId('connection-token-issued-done').click();
  await expect(issued).toHaveCount(0);
  await expect(dialog).toHaveCount(0);

  // Delete through the UI.
  await row.getByTestId('connection-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(row).toHaveCount(0);
  const left = await fetch(`${api}/whatsapp/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(left.status).toBe(404);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('connections: at 390 px a connection waiting for its QR code shows its status, session buttons and actions on screen', async ({ page, baseURL }) => {
    const api = apiUrl(baseURL);
    const token = await apiLogin(api);
    const name = `Loja do celular com um nome bem comprido ${Date.now().toString(36)}`;
    const created = await fetch(`${api}/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name, provider: 'sandbox' }),
    });
    expect(created.ok).toBe(true);
    const { id } = (await created.json()) as { id: number };
    // The widest state: a QR code waiting, with the QR and new-QR buttons beside the status.
    await pushSession(api, token, id, { status: 'qrcode', qrcode: `2@e2e-${Date.now()},phone` });

    await login(page);
    await page.goto('/connections');
    const row = page.getByTestId('connection-row').filter({ hasText: name });
    await expect(row).toHaveAttribute('data-status', 'qrcode');
    const onScreen = async (locator: ReturnType<typeof page.getByTestId>) => {
      await expect(locator).toBeVisible();
      const box = await locator.boundingBox();
      expect(box, 'rendered').not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    };
    for (const id of ['connection-status', 'connection-qr', 'connection-open-phone', 'connection-edit', 'connection-delete']) await onScreen(row.getByTestId(id));
    await onScreen(page.getByTestId('connection-add'));
    // Neither the page nor the table scrolls sideways.
    await expectNoSideScroll(page, 390);
    const table = page.locator('.MuiTableContainer-root').first();
    expect(await table.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);

    await fetch(`${api}/whatsapp/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  });
});
