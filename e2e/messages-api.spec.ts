import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiLogin, expect, login, test } from './fixtures';

/**
 * The external messages API page (spec part 2 §2.14): its test forms send
 * through `POST /api/messages/send` with a connection's token, and the messages
 * reach the customer (here the sandbox phone's outbox).
 */

/** Calls the test makes itself go straight to the API (in CI the API serves the web app too). */
const apiUrl = (baseURL: string | undefined) => process.env.E2E_API_URL ?? baseURL ?? '';

async function api<T>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

test('messages API page: the test forms send text and media through a connection token', async ({ page, baseURL }) => {
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
  const base = apiUrl(baseURL);
  const adminToken = await apiLogin(base);
  const stamp = Date.now().toString(36);
  // Any token value asks the server for a new random one, which it answers.
  const connection = await api<{ id: number; token: string }>(base, adminToken, 'POST', '/whatsapp', { name: `API ${stamp}`, provider: 'sandbox', token: 'please-make-a-token' });
  const connectionToken = connection.token;
  const number = `55119${String(Date.now()).slice(-8)}`;

  await login(page);
  await page.goto('/messages-api');
  await expect(page.getByTestId('messages-api-page')).toBeVisible();
  await expect(page.getByTestId('messages-api-endpoint')).toHaveText(/\/api\/messages\/send$/);

  // Text.
  await page.getByTestId('text-test-token').fill(connectionToken);
  await page.getByTestId('text-test-number').fill(number);
  await page.getByTestId('text-test-body').fill('Olá, mensagem enviada pela API');
  await page.getByTestId('text-test-send').click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Mensagem enviada com sucesso' })).toBeVisible();
  await expect(page.getByTestId('text-test-body')).toHaveValue('');

  // Media, with a caption.
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-e2e-'));
  const file = path.join(dir, 'boleto.pdf');
  writeFileSync(file, '%PDF-1.4\n% test file\n');
  await page.getByTestId('media-test-token').fill(connectionToken);
  await page.getByTestId('media-test-number').fill(number);
  await page.getByTestId('media-test-body').fill('Segue o boleto');
  await page.getByTestId('media-test-file').setInputFiles(file);
  await expect(page.getByTestId('media-test-file-chip')).toHaveText('boleto.pdf');
  await page.getByTestId('media-test-send').click();
  await expect(page.getByTestId('media-test-file-chip')).toHaveCount(0);

  // Both reached the customer's phone.
  const outbox = await api<{ body: string; mediaName: string | null }[]>(base, adminToken, 'GET', `/sandbox/${connection.id}/outbox?number=${number}`);
  expect(outbox).toEqual([
    expect.objectContaining({ body: 'Olá, mensagem enviada pela API', mediaName: null }),
    expect.objectContaining({ body: 'Segue o boleto', mediaName: 'boleto.pdf' }),
  ]);
  await page.goto(`/phone/${connection.id}?number=${number}`);
  await expect(page.getByTestId('phone-message').filter({ hasText: 'mensagem enviada pela API' })).toBeVisible();
  await expect(page.getByTestId('phone-message').filter({ hasText: 'boleto.pdf' })).toBeVisible();
});

test.describe('refused', () => {
  test.use({ expectedHttpErrors: [401] });

  test('a wrong token is refused with an error toast', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
    await login(page);
    await page.goto('/messages-api');
    await page.getByTestId('text-test-token').fill('not-a-connection-token');
    await page.getByTestId('text-test-number').fill('5511999990000');
    await page.getByTestId('text-test-body').fill('Oi');
    await page.getByTestId('text-test-send').click();
    await expect(page.locator('[data-toast]').filter({ hasText: 'Token da API inválido.' })).toBeVisible();
    await expect(page.getByTestId('text-test-body')).toHaveValue('Oi');
  });
});
