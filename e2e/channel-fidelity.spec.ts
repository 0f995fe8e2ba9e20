import { api, apiLogin, expect, login, test, uniqueStamp } from './fixtures';

/**
 * Channel fidelity (issue 19) in the browser: on the sandbox phone the customer
 * reacts to the agent's message and sends a catalog order; the agent's
 * conversation, open in another tab, shows the reaction on that message and the
 * order as a card, live.
 */
test('channel fidelity: a reaction and an order from the phone show in the conversation live', async ({ page, context, baseURL }) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp();
  const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Fidelidade ${stamp.text}`, provider: 'sandbox' });
  const number = `55419${stamp.digits}`;
  const said = await api<{ ticketId: number }>(base, token, 'POST', `/sandbox/${connection.id}/inbound`, { from: number, name: `Olga ${stamp.text}`, body: 'Quero fazer um pedido' });
  const ticket = await api<{ uuid: string }>(base, token, 'GET', `/tickets/${said.ticketId}`);
  const me = await api<{ id: number }>(base, token, 'GET', '/auth/me');
  await api(base, token, 'PUT', `/tickets/${said.ticketId}`, { status: 'open', userId: me.id });
  const reply = `Claro! Veja o catálogo (${stamp.text})`;
  await api(base, token, 'POST', `/messages/${said.ticketId}`, { body: reply });

  await login(page);
  await page.goto(`/tickets/${ticket.uuid}`);
  const agentMessage = page.getByTestId('message-item').filter({ hasText: reply });
  await expect(agentMessage).toBeVisible();

  const phone = await context.newPage();
  await phone.goto(`/phone/${connection.id}?number=${number}&name=Olga`);
  const phoneReply = phone.getByTestId('phone-message').filter({ hasText: reply });
  await expect(phoneReply).toBeVisible();
  await phoneReply.getByTestId('phone-react').click();
  await phone.getByTestId('phone-order').click();

  await expect(agentMessage.getByTestId('message-reactions')).toHaveText('👍');
  const order = page.getByTestId('message-item').filter({ has: page.getByTestId('message-order') });
  await expect(order).toBeVisible();
  await expect(order.getByTestId('message-order-item')).toHaveCount(2);
  await expect(order.getByTestId('message-order-total')).toContainText(/134[.,]80/);
});
