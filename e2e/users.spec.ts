import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * Onboarding an agent without the API (issue 18): the admin creates the agent
 * with one queue on /users; the agent, in a browser of its own, sees only that
 * queue's tickets; the admin takes the queue away and the ticket leaves the
 * agent's list live, without a new login.
 */

interface Ticket {
  id: number;
  contact: { name: string };
}

async function pendingTicket(base: string, token: string, connectionId: number, queueId: number, name: string, number: string): Promise<Ticket> {
  await api(base, token, 'POST', `/sandbox/${connectionId}/inbound`, { from: number, name, body: 'Olá' });
  const found = await api<{ tickets: Ticket[] }>(base, token, 'GET', `/tickets?status=pending&showAll=true&searchParam=${number}`);
  const ticket = found.tickets[0];
  if (!ticket) throw new Error(`no ticket for ${number}`);
  // Into its queue, still waiting: the agent sees pending tickets of its own queues only.
  await api(base, token, 'PUT', `/tickets/${ticket.id}`, { queueId, status: 'pending' });
  return ticket;
}

test('users: an admin onboards an agent with a queue; the agent sees only that queue, and loses it live', async ({ page, baseURL, newPage }) => {
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp();
  const sales = await api<{ id: number; name: string }>(base, token, 'POST', '/queue', { name: `Vendas ${stamp.text}`, color: '#1e88e5' });
  const other = await api<{ id: number; name: string }>(base, token, 'POST', '/queue', { name: `Outra ${stamp.text}`, color: '#8e24aa' });
  const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Sandbox ${stamp.text}`, provider: 'sandbox' });
  const inSales = `Cliente Vendas ${stamp.text}`;
  const inOther = `Cliente Outra ${stamp.text}`;
  await pendingTicket(base, token, connection.id, sales.id, inSales, `55319${stamp.digits}`);
  await pendingTicket(base, token, connection.id, other.id, inOther, `55329${stamp.digits}`);

  // The admin creates the agent on /users, with the sales queue.
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await login(page);
  await page.goto('/users');
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  const agent = { name: `Agente ${stamp.text}`, email: `agente-${stamp.text}@example.com`, password: 'agente123' };
  await page.getByTestId('users-add').click();
  await page.getByTestId('user-name').fill(agent.name);
  await page.getByTestId('user-email').fill(agent.email);
  await page.getByTestId('user-password').fill(agent.password);
  await page.getByTestId('user-queues').getByRole('combobox').click();
  await page.getByRole('option', { name: sales.name }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('user-queues').getByText(sales.name)).toBeVisible();
  await page.getByTestId('user-save').click();
  await expect(page.getByTestId('user-modal')).toBeHidden();
  const row = page.getByTestId('user-row').filter({ hasText: agent.name });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('user-queues-cell').getByTestId('queue-chip')).toHaveText([sales.name]);
  if (process.env.E2E_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS_DIR}/users-light.png` });

  // The agent, in a browser of its own, sees the sales ticket and not the other queue's.
  const agentPage = await newPage();
  await agentPage.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await login(agentPage, agent.email, agent.password);
  await agentPage.getByTestId('subtab-pending').click();
  const agentTickets = agentPage.getByTestId('ticket-item');
  await expect(agentTickets.filter({ hasText: inSales })).toBeVisible();
  await expect(agentTickets.filter({ hasText: inOther })).toHaveCount(0);

  // The admin takes the queue away; the agent's list follows without a reload.
  await row.getByTestId('user-edit').click();
  await expect(page.getByTestId('user-name')).toHaveValue(agent.name);
  await page.getByTestId('user-queues').getByRole('combobox').click();
  await page.getByRole('option', { name: sales.name }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('user-save').click();
  await expect(page.getByTestId('user-modal')).toBeHidden();
  await expect(row.getByTestId('queue-chip')).toHaveCount(0);

  await expect(agentTickets.filter({ hasText: inSales })).toHaveCount(0);
  await expect(agentTickets.filter({ hasText: inOther })).toHaveCount(0);

  if (process.env.E2E_SCREENSHOTS_DIR) {
    await page.getByTestId('theme-toggle').click();
    await row.getByTestId('user-edit').click();
    await expect(page.getByTestId('user-name')).toHaveValue(agent.name);
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS_DIR}/users-dark.png` });
  }
});

test.describe('on a phone, in dark mode', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('users: every control of the page and the modal stays on screen at 390 px', async ({ page }) => {
    await page.addInitScript(() => {
      localStorage.setItem('i18nextLng', 'pt');
      localStorage.setItem('preferredTheme', 'dark');
    });
    await login(page);
    await page.goto('/users');
    const row = page.getByTestId('user-row').first();
    await expect(row).toBeVisible();
    const onScreen = async (locator: ReturnType<typeof page.getByTestId>) => {
      const box = await locator.boundingBox();
      expect(box, 'rendered').not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    };
    await onScreen(page.getByTestId('users-search'));
    await onScreen(page.getByTestId('users-add'));
    await onScreen(row.getByTestId('user-edit'));
    // No horizontal scroll on the page itself.
    await expectNoSideScroll(page, 390);
    if (process.env.E2E_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS_DIR}/users-phone-dark.png` });

    await page.getByTestId('users-add').click();
    for (const id of ['user-name', 'user-password', 'user-email', 'user-profile', 'user-queues', 'user-allticket', 'user-whatsapp', 'user-language', 'user-save']) {
      await page.getByTestId(id).scrollIntoViewIfNeeded();
      await onScreen(page.getByTestId(id));
    }
    if (process.env.E2E_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS_DIR}/user-modal-phone-dark.png` });
    // The spec's messages, in Portuguese.
    await page.getByTestId('user-name').fill('A');
    await page.getByTestId('user-save').click();
    await expect(page.getByText('Muito curto!')).toBeVisible();
    await expect(page.getByText('Obrigatório').first()).toBeVisible();
  });
});
