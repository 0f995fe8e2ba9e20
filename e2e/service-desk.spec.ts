import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { apiLogin, expect, login, test } from './fixtures';

/**
 * The service desk end to end (issue 4): a customer writes from the sandbox
 * phone, an agent in another browser sees it live, accepts, replies, transfers,
 * closes and reopens; contacts import and export; queue visibility.
 */

interface Setup {
  adminToken: string;
  connectionId: number;
  sales: { id: number; name: string };
  support: { id: number; name: string };
  agent: { email: string; password: string };
}

async function api<T>(baseURL: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A random colour: queue colours are unique per company. */
const color = () => `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;

async function setUp(baseURL: string): Promise<Setup> {
  const adminToken = await apiLogin(baseURL);
  const stamp = Date.now().toString(36);
  const sales = await api<{ id: number; name: string }>(baseURL, adminToken, 'POST', '/queue', { name: `Vendas ${stamp}`, color: color() });
  const support = await api<{ id: number; name: string }>(baseURL, adminToken, 'POST', '/queue', { name: `Suporte ${stamp}`, color: color() });
  const connection = await api<{ id: number }>(baseURL, adminToken, 'POST', '/whatsapp', { name: `Sandbox ${stamp}`, provider: 'sandbox' });
  const agent = { email: `agente-${stamp}@example.com`, password: 'Agent123' };
  await api(baseURL, adminToken, 'POST', '/users', { name: 'Agente Ana', ...agent, profile: 'user', queueIds: [sales.id, support.id] });
  return { adminToken, connectionId: connection.id, sales, support, agent };
}

async function customerSays(phone: Page, text: string): Promise<void> {
  await phone.getByTestId('phone-input').fill(text);
  await phone.getByTestId('phone-send').click();
  await expect(phone.getByTestId('phone-message').filter({ hasText: text })).toBeVisible();
}

test.describe('service desk', () => {
  test('a customer message reaches an agent live; the agent accepts, replies, transfers, closes and reopens', async ({ page, newPage, baseURL }) => {
    test.setTimeout(120_000);
    const base = baseURL ?? '';
    const setup = await setUp(base);
    const number = `55119${String(Date.now()).slice(-8)}`;

    // The agent, in its own browser, waits on the pending list.
    const agent = await newPage({ viewport: { width: 1440, height: 900 } });
    await login(agent, setup.agent.email, setup.agent.password);
    await agent.getByTestId('subtab-pending').click();

    // The customer writes from the test phone (the admin's browser).
    await login(page);
    await page.goto(`/phone/${setup.connectionId}?number=${number}&name=Maria%20Cliente`);
    await customerSays(page, 'Olá, preciso de ajuda com meu pedido');

    const row = agent.getByTestId('ticket-item').filter({ hasText: 'Maria Cliente' });
    await expect(row).toBeVisible();
    await expect(row).toHaveAttribute('data-status', 'pending');
    await expect(row.getByTestId('ticket-unread')).toBeVisible();

    // Accept: the conversation opens for the agent.
    await row.getByTestId('ticket-accept').click();
    await expect(agent).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    await expect(agent.getByTestId('message-item').filter({ hasText: 'preciso de ajuda' })).toBeVisible();

    // Text reply.
    await agent.getByTestId('composer-input').fill('Olá Maria, vou verificar agora.');
    await agent.getByTestId('composer-send').click();
    await expect(page.getByTestId('phone-message').filter({ hasText: 'vou verificar agora' })).toBeVisible();

    // A file.
    const dir = mkdtempSync(path.join(tmpdir(), 'atende-e2e-'));
    const file = path.join(dir, 'comprovante pedido.pdf');
    writeFileSync(file, '%PDF-1.4\n% test file\n');
    await agent.getByTestId('composer-attach').setInputFiles(file);
    await expect(agent.getByTestId('composer-file')).toBeVisible();
    await agent.getByTestId('composer-send').click();
    await expect(page.getByTestId('phone-message').filter({ hasText: 'comprovante_pedido.pdf' })).toBeVisible();

    // A quoted reply to the customer's message.
    const customerMessage = agent.getByTestId('message-item').filter({ hasText: 'preciso de ajuda' });
    await customerMessage.hover();
    await customerMessage.getByTestId('message-menu').click();
    await agent.getByTestId('message-reply').click();
    await expect(agent.getByTestId('quoted-preview')).toBeVisible();
    await agent.getByTestId('composer-input').fill('Sobre este pedido: já localizei.');
    await agent.getByTestId('composer-send').click();
    await expect(agent.getByTestId('quoted-preview')).toHaveCount(0);
    await expect(page.getByTestId('phone-message').filter({ hasText: 'já localizei' })).toBeVisible();
    const outbox = await api<{ body: string; quotedId: string | null }[]>(
      base,
      setup.adminToken,
      'GET',
      `/sandbox/${setup.connectionId}/outbox?number=${number}`,
    );
    expect(outbox.find((entry) => entry.body.includes('já localizei'))?.quotedId).toEqual(expect.any(String));

    // Screenshots of the conversation and the list, light and dark.
    await shoot(agent, 'conversation');

    // On a phone the text box shares its line only with send and record; the tools and
    // the signature switch, with its label, go to the next line.
    await agent.setViewportSize({ width: 390, height: 844 });
    // The phone layout mounts the conversation again: wait for its text box, then measure it.
    const textBox = agent.getByTestId('composer-input');
    await expect(textBox).toBeVisible();
    await expect.poll(async () => (await textBox.boundingBox())?.width ?? 0).toBeGreaterThan(220);
    const signLabel = agent.locator('label').filter({ has: agent.getByTestId('composer-sign') });
    await expect(signLabel).toBeVisible();
    expect((await signLabel.innerText()).trim()).not.toBe('');
    await agent.setViewportSize({ width: 1440, height: 900 });

    // Transfer to the support queue without a user: back to pending, nobody's.
    await agent.getByTestId('ticket-transfer-button').click();
    await expect(agent.getByTestId('transfer-dialog')).toBeVisible();
    await agent.getByTestId('transfer-queue').click();
    await agent.getByTestId('transfer-queue-option').filter({ hasText: setup.support.name }).click();
    await agent.getByTestId('transfer-submit').click();
    await expect(agent).toHaveURL(/\/tickets\/?$/);
    await agent.getByTestId('subtab-pending').click();
    const transferred = agent.getByTestId('ticket-item').filter({ hasText: 'Maria Cliente' });
    await expect(transferred).toHaveAttribute('data-status', 'pending');
    await expect(transferred).toContainText(setup.support.name);

    // Accept again, then close.
    await transferred.getByTestId('ticket-accept').click();
    await expect(agent).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    await agent.getByTestId('ticket-resolve-button').click();
    await expect(agent).toHaveURL(/\/tickets\/?$/);

    // Reopen from the closed tab.
    await agent.getByTestId('tab-closed').click();
    const closed = agent.getByTestId('ticket-item').filter({ hasText: 'Maria Cliente' });
    await expect(closed).toHaveAttribute('data-status', 'closed');
    await closed.getByTestId('ticket-reopen').click();
    await expect(agent).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    await expect(agent.getByTestId('ticket-resolve-button')).toBeVisible();
    await agent.getByTestId('tab-open').click();
    await agent.getByTestId('subtab-open').click();
    await shoot(agent, 'tickets');
  });

  test.describe('refused', () => {
    test.use({ expectedHttpErrors: [403] });

  test('a user cannot open a ticket outside its queues', async ({ page, baseURL }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
    const base = baseURL ?? '';
    const setup = await setUp(base);
    const stamp = Date.now().toString(36);
    const other = await api<{ id: number }>(base, setup.adminToken, 'POST', '/queue', { name: `Financeiro ${stamp}`, color: color() });
    const number = `55219${String(Date.now()).slice(-8)}`;
    await api(base, setup.adminToken, 'POST', `/sandbox/${setup.connectionId}/inbound`, { from: number, name: 'Cliente Financeiro', body: 'Boleto' });
    const page1 = await api<{ tickets: { id: number; uuid: string; contact: { number: string } }[] }>(
      base,
      setup.adminToken,
      'GET',
      `/tickets?status=pending&showAll=true&searchParam=${number}`,
    );
    const ticket = page1.tickets[0];
    if (!ticket) throw new Error('ticket not created');
    await api(base, setup.adminToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: 1, queueId: other.id });

    await login(page, setup.agent.email, setup.agent.password);
    await page.goto(`/tickets/${ticket.uuid}`);
    await expect(page.locator('[data-toast]')).toContainText('Acesso não permitido');
    await expect(page).toHaveURL(/\/tickets\/?$/);
  });
  });

  test.describe('two agents, one ticket', () => {
    test.use({ expectedHttpErrors: [409] });

    test('an agent accepting a ticket another agent just accepted is told who has it', async ({ newPage, baseURL }) => {
      test.setTimeout(90_000);
      const base = baseURL ?? '';
      const setup = await setUp(base);
      const bruno = { email: `bruno-${Date.now().toString(36)}@example.com`, password: 'Agent123' };
      await api(base, setup.adminToken, 'POST', '/users', { name: 'Agente Bruno', ...bruno, profile: 'user', queueIds: [setup.sales.id, setup.support.id] });
      const number = `55219${String(Date.now()).slice(-8)}`;

      const ana = await newPage();
      await ana.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
      await login(ana, setup.agent.email, setup.agent.password);
      // Bruno's browser stops hearing live events when told to: his list keeps showing the
      // ticket as waiting after Ana took it, as on a screen a moment behind.
      const brunoPage = await newPage();
      let brunoHears = true;
      await brunoPage.routeWebSocket(/socket\.io/, (socket) => {
        const server = socket.connectToServer();
        server.onMessage((message) => {
          if (brunoHears) socket.send(message);
        });
      });
      await brunoPage.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
      await login(brunoPage, bruno.email, bruno.password);

      await api(base, setup.adminToken, 'POST', `/sandbox/${setup.connectionId}/inbound`, { from: number, name: 'Cliente Disputado', body: 'Alguém me atende?' });
      for (const agent of [ana, brunoPage]) {
        await agent.getByTestId('subtab-pending').click();
        await expect(agent.getByTestId('ticket-item').filter({ hasText: 'Cliente Disputado' })).toHaveAttribute('data-status', 'pending');
      }

      brunoHears = false;
      await ana.getByTestId('ticket-item').filter({ hasText: 'Cliente Disputado' }).getByTestId('ticket-accept').click();
      await expect(ana).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);

      const stale = brunoPage.getByTestId('ticket-item').filter({ hasText: 'Cliente Disputado' });
      await expect(stale).toHaveAttribute('data-status', 'pending');
      await stale.getByTestId('ticket-accept').click();
      await expect(brunoPage.locator('[data-toast]')).toContainText('Ticket already accepted by Agente Ana');
      await expect(brunoPage).toHaveURL(/\/tickets\/?$/);
      // His list reloads and no longer offers it; Ana keeps the conversation.
      await expect(stale).toHaveCount(0);
      await expect(ana.getByTestId('ticket-resolve-button')).toBeVisible();
      const ticket = (
        await api<{ tickets: { status: string; user: { name: string } | null }[] }>(base, setup.adminToken, 'GET', `/tickets?status=open&showAll=true&searchParam=${number}`)
      ).tickets[0];
      expect(ticket).toMatchObject({ status: 'open', user: { name: 'Agente Ana' } });
    });
  });

  test('contacts: import an .xlsx, then export contatos.csv', async ({ page }) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atende-e2e-'));
    const sheet = path.join(dir, 'contatos.xlsx');
    const workbook = new ExcelJS.Workbook();
    const worksheet = workbook.addWorksheet('Contatos');
    const suffix = String(Date.now()).slice(-7);
    worksheet.addRow(['name', 'number', 'email']);
    worksheet.addRow(['Importado Um', `55319${suffix}1`, 'um@example.com']);
    worksheet.addRow(['Importado Dois', `55319${suffix}2`, '']);
    worksheet.addRow(['X', `55319${suffix}3`, '']);
    await workbook.xlsx.writeFile(sheet);

    await login(page);
    await page.goto('/contacts');
    await page.getByTestId('contacts-import').click();
    await page.getByTestId('contacts-import-sheet').click();
    await expect(page.getByTestId('contacts-import-dialog')).toBeVisible();
    await page.getByTestId('contacts-import-file').setInputFiles(sheet);
    await expect(page.getByTestId('contacts-import-count')).toContainText('2');
    await expect(page.getByTestId('contacts-import-error')).toHaveCount(1);
    await page.getByTestId('contacts-import-close').click();
    await page.getByTestId('contacts-search').fill('importado');
    await expect(page.getByTestId('contact-row')).toHaveCount(2);

    const download = page.waitForEvent('download');
    await page.getByTestId('contacts-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('contatos.csv');
    const target = path.join(dir, 'contatos.csv');
    await file.saveAs(target);
    const csv = readFileSync(target, 'utf8').replace(/^\uFEFF/, '');
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toBe('name;number;email');
    expect(lines.some((line) => line.includes('Importado Um') && line.includes(`55319${suffix}1`) && line.includes('um@example.com'))).toBe(true);
  });
});

/**
 * Light and dark screenshots. A test run keeps them with its artifacts;
 * `npm run screenshots` sets E2E_SCREENSHOTS_DIR to refresh docs/screenshots
 * (linked from the README).
 */
async function shoot(page: Page, name: string): Promise<void> {
  const folder = path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => localStorage.setItem('preferredTheme', value), theme);
    await page.reload();
    await expect(page.getByTestId('tickets-page')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(folder, `${name}-${theme}.png`) });
  }
  await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'));
}

