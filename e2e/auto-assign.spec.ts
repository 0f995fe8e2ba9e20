import { api, apiLogin, expect, login, test, uniqueStamp } from './fixtures';

/**
 * Auto-assignment (issue 35): an admin switches it on in the queue dialog (shown at 1440
 * and 390 px), an agent who is online gets a new ticket assigned live, without accepting
 * it, and the dashboard shows the agent's load.
 */

const shots = process.env.E2E_SCREENSHOTS_DIR;

test('auto-assign: queue settings at 1440 and 390 px; an online agent gets a new ticket live; the dashboard shows the load', async ({ page, newPage, baseURL }) => {
  test.setTimeout(120_000);
  const base = baseURL ?? '';
  const stamp = uniqueStamp();
  const adminToken = await apiLogin(base);
  const queueName = `Plantão ${stamp.text}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(() => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
  });
  await login(page);

  // The admin creates the queue with auto-assignment in its own section of the dialog.
  await page.goto('/queues');
  await page.getByTestId('queue-add').click();
  const dialog = page.getByTestId('queue-modal');
  await dialog.getByTestId('queue-name').fill(queueName);
  const section = dialog.getByTestId('queue-auto-assign');
  await expect(section).toBeVisible();
  await section.getByTestId('queue-defaultMaxOpenTickets').fill('0');
  await dialog.getByTestId('queue-save').click();
  await expect(section).toContainText('Entre 1 e 1000');
  await section.getByTestId('queue-defaultMaxOpenTickets').fill('3');
  await section.getByRole('combobox').click();
  await page.getByTestId('queue-autoAssign-round_robin').click();
  if (shots) await dialog.screenshot({ path: `${shots}/auto-assign-queue-1440.png` });
  await dialog.getByTestId('queue-save').click();
  // A new queue stays open on its chatbot tab: close it.
  await dialog.getByTestId('queue-cancel').click();
  const row = page.locator(`[data-testid="queue-row"][data-queue-name="${queueName}"]`);
  await expect(row.getByTestId('queue-auto-assign-cell')).toHaveText('Rodízio · até 3');
  const queueId = Number(await row.getAttribute('data-queue-id'));

  // At 390 px the section stacks and stays usable.
  await page.setViewportSize({ width: 390, height: 844 });
  await row.getByTestId('queue-edit').click();
  await expect(dialog.getByTestId('queue-auto-assign')).toBeVisible();
  await dialog.getByTestId('queue-auto-assign').scrollIntoViewIfNeeded();
  const box = await dialog.getByTestId('queue-defaultMaxOpenTickets').boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await expect(dialog.getByTestId('queue-defaultMaxOpenTickets')).toHaveValue('3');
  if (shots) await page.screenshot({ path: `${shots}/auto-assign-queue-390.png` });
  await dialog.getByTestId('queue-cancel').click();
  await page.setViewportSize({ width: 1440, height: 900 });

  // An agent of the queue is online (its browser is open on the open tab).
  const agentLogin = { email: `plantao-${stamp.text}@example.com`, password: 'Agent123' };
  const agentName = `Agente Plantão ${stamp.text}`;
  await api(base, adminToken, 'POST', '/users', { name: agentName, ...agentLogin, profile: 'user', queueIds: [queueId] });
  const agent = await newPage({ viewport: { width: 1440, height: 900 } });
  await login(agent, agentLogin.email, agentLogin.password);
  await agent.getByTestId('subtab-open').click();

  // A customer writes; the ticket enters the queue and is the agent's at once, no accept.
  const connection = await api<{ id: number }>(base, adminToken, 'POST', '/whatsapp', { name: `Sandbox ${stamp.text}`, provider: 'sandbox' });
  const customer = `Cliente ${stamp.text}`;
  const inbound = await api<{ ticketId: number }>(base, adminToken, 'POST', `/sandbox/${connection.id}/inbound`, { from: `55119${stamp.digits.slice(-8)}`, name: customer, body: 'Preciso de ajuda' });
  await api(base, adminToken, 'PUT', `/tickets/${inbound.ticketId}`, { queueId });
  const item = agent.getByTestId('ticket-item').filter({ hasText: customer });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('data-status', 'open');
  if (shots) await agent.screenshot({ path: `${shots}/auto-assign-agent.png` });

  // The admin's dashboard: the agent's load against the queue's capacity, online.
  await page.goto('/');
  const load = page.locator(`[data-testid="dashboard-agent-load-row"][data-name="${agentName}"]`);
  await expect(load.getByTestId('dashboard-agent-load-value')).toContainText('1 de 3');
  await expect(load.locator('[data-online="true"]')).toBeVisible();
  if (shots) await page.getByTestId('dashboard-agent-load').screenshot({ path: `${shots}/auto-assign-dashboard.png` });
});
