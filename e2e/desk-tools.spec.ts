import { api, apiLogin, expect, login, test, uniqueStamp } from './fixtures';

/**
 * The agent's tools around a conversation (issue 16): quick messages made on
 * their page and used with "/" in the composer, the new-ticket dialog, the
 * contact drawer and its notes, tags on a ticket, and the ticket list filters.
 * Records the test needs but does not exercise are made through the API.
 */

interface Ticket {
  id: number;
  uuid: string;
}

interface Desk {
  token: string;
  connectionId: number;
}

/** A sandbox connection of the admin's company. */
async function desk(baseURL: string): Promise<Desk> {
  const token = await apiLogin(baseURL);
  const connection = await api<{ id: number }>(baseURL, token, 'POST', '/whatsapp', { name: `Sandbox ${uniqueStamp().text}`, provider: 'sandbox' });
  return { token, connectionId: connection.id };
}

async function contact(baseURL: string, token: string, name: string, number: string): Promise<{ id: number }> {
  return api<{ id: number }>(baseURL, token, 'POST', '/contacts', { name, number });
}

/** An open ticket of the admin with a new contact. */
async function openTicket(baseURL: string, { token, connectionId }: Desk, name: string, queueId?: number): Promise<Ticket & { number: string }> {
  const number = `55319${uniqueStamp().digits.slice(1)}${Math.floor(Math.random() * 10)}`;
  const { id: contactId } = await contact(baseURL, token, name, number);
  const ticket = await api<Ticket>(baseURL, token, 'POST', '/tickets', { contactId, whatsappId: connectionId, status: 'open', ...(queueId ? { queueId } : {}) });
  return { ...ticket, number };
}

test('quick messages: made on their page, then used with "/" in the composer and sent', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const setup = await desk(base);
  const shortcode = `horario${uniqueStamp().text}`;
  const text = 'Atendemos de segunda a sexta, das 8h às 18h.';
  const ticket = await openTicket(base, setup, 'Cliente Atalho');

  await login(page);
  await page.goto('/quick-messages');
  await page.getByTestId('quick-message-add').click();
  const dialog = page.getByTestId('quick-message-dialog');
  await dialog.getByTestId('quick-message-shortcode').fill(shortcode);
  await dialog.getByTestId('quick-message-message').fill(text);
  await dialog.getByTestId('quick-message-save').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('quick-message-row').filter({ hasText: shortcode })).toBeVisible();

  await page.goto(`/tickets/${ticket.uuid}`);
  const input = page.getByTestId('composer-input');
  await input.fill(`/${shortcode.slice(0, 7)}`);
  await page.getByTestId('quick-answer-option').filter({ hasText: shortcode }).click();
  await expect(input).toHaveValue(text);
  await page.getByTestId('composer-send').click();
  await expect(page.getByTestId('message-item').filter({ hasText: text })).toBeVisible();
  const outbox = await api<{ body: string }[]>(base, setup.token, 'GET', `/sandbox/${setup.connectionId}/outbox?number=${ticket.number}`);
  expect(outbox.map((entry) => entry.body).filter((body) => body.includes(text))).toHaveLength(1);
});

test('quick messages an admin makes reach every agent; a /word that matches nothing is not sent without asking', async ({ page, newPage, baseURL }) => {
  const base = baseURL ?? '';
  const setup = await desk(base);
  const stamp = uniqueStamp().text;
  const shortcode = `boas${stamp}`;
  const agentEmail = `atalho-${stamp}@example.com`;
  const agent = await api<{ id: number }>(base, setup.token, 'POST', '/users', { name: `Agente Atalho ${stamp}`, email: agentEmail, password: 'Agent123', profile: 'user' });
  const ticket = await openTicket(base, setup, `Cliente Atalho ${stamp}`);
  await api(base, setup.token, 'PUT', `/tickets/${ticket.id}`, { userId: agent.id });

  // The admin makes one without touching "visible to everyone": it is on, and the list says so.
  await login(page);
  await page.goto('/quick-messages');
  await page.getByTestId('quick-message-add').click();
  const dialog = page.getByTestId('quick-message-dialog');
  await expect(dialog.getByTestId('quick-message-geral').locator('input')).toBeChecked();
  await dialog.getByTestId('quick-message-shortcode').fill(shortcode);
  await dialog.getByTestId('quick-message-message').fill('Boas-vindas! Em que posso ajudar?');
  await dialog.getByTestId('quick-message-save').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('quick-message-row').filter({ hasText: shortcode }).getByTestId('quick-message-visibility')).toHaveText(/^(Everyone|Todos)$/);

  // The agent finds it with "/".
  const agentPage = await newPage();
  await login(agentPage, agentEmail, 'Agent123');
  await agentPage.goto(`/tickets/${ticket.uuid}`);
  const input = agentPage.getByTestId('composer-input');
  await input.fill(`/${shortcode}`);
  await expect(agentPage.getByTestId('quick-answer-option').filter({ hasText: shortcode })).toBeVisible();

  // A /word that matches nothing is not sent as it is without asking; cancelled, nothing goes out.
  await input.fill(`/nada${stamp}`);
  await input.press('Enter');
  await agentPage.getByTestId('confirm-cancel').click();
  await expect(input).toHaveValue(`/nada${stamp}`);
  const outbox = await api<{ body: string }[]>(base, setup.token, 'GET', `/sandbox/${setup.connectionId}/outbox?number=${ticket.number}`);
  expect(outbox.filter((entry) => entry.body.includes(`/nada${stamp}`))).toHaveLength(0);
});

test('new-ticket dialog: finds a contact by name and opens its conversation', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const setup = await desk(base);
  const name = `Novo Contato ${uniqueStamp().text}`;
  await contact(base, setup.token, name, `55419${uniqueStamp().digits}`);

  await login(page);
  await page.getByTestId('new-ticket').click();
  const dialog = page.getByTestId('new-ticket-dialog');
  await expect(dialog).toBeVisible();
  // Submitting without a contact is refused in the dialog.
  await dialog.getByTestId('new-ticket-submit').click();
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('new-ticket-contact').fill(name);
  await page.getByRole('option', { name }).click();
  await dialog.getByTestId('new-ticket-submit').click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('ticket-header')).toContainText(name);
  await expect(page.getByTestId('composer-input')).toBeEnabled();
});

test('contact drawer: edits the contact and keeps notes (add, delete)', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const setup = await desk(base);
  const ticket = await openTicket(base, setup, 'Cliente Gaveta');
  const renamed = `Cliente Renomeado ${uniqueStamp().text}`;

  await login(page);
  await page.goto(`/tickets/${ticket.uuid}`);
  await page.getByTestId('ticket-contact').click();
  const drawer = page.getByTestId('contact-drawer');
  await expect(drawer.getByTestId('contact-drawer-name')).toHaveText('Cliente Gaveta');

  await drawer.getByTestId('contact-edit').click();
  await drawer.getByTestId('contact-name').fill(renamed);
  await drawer.getByTestId('contact-save').click();
  await expect(drawer.getByTestId('contact-drawer-name')).toHaveText(renamed);

  await drawer.getByTestId('note-input').fill('Prefere ser atendida pela manhã.');
  await drawer.getByTestId('note-submit').click();
  const note = drawer.getByTestId('note-item').filter({ hasText: 'Prefere ser atendida pela manhã.' });
  await expect(note).toBeVisible();

  // Kept: the drawer shows both after a reload.
  await page.reload();
  await page.getByTestId('ticket-contact').click();
  await expect(drawer.getByTestId('contact-drawer-name')).toHaveText(renamed);
  await expect(note).toBeVisible();

  await note.getByTestId('note-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(drawer.getByTestId('note-item')).toHaveCount(0);
});

test('tags on a ticket: a new tag is created from the tag bar, kept, and found by the search tab tag filter', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const setup = await desk(base);
  const tagged = await openTicket(base, setup, `Cliente Etiqueta ${uniqueStamp().text}`);
  await openTicket(base, setup, `Cliente Sem Etiqueta ${uniqueStamp().text}`);
  const tag = `vip${uniqueStamp().text}`;

  await login(page);
  await page.goto(`/tickets/${tagged.uuid}`);
  await page.getByTestId('tag-input').fill(tag);
  await page.getByTestId('tag-input').press('Enter');
  await expect(page.getByTestId('ticket-tag').filter({ hasText: tag })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('ticket-tag').filter({ hasText: tag })).toBeVisible();

  await page.getByTestId('tab-search').click();
  await page.getByTestId('tag-filter').getByRole('combobox').fill(tag);
  await page.getByRole('option', { name: tag }).click();
  const items = page.getByTestId('ticket-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('Cliente Etiqueta');
});

test('queue filter: unticking a queue hides its tickets from the open list', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const setup = await desk(base);
  const stamp = uniqueStamp().text;
  const color = () => `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;
  const kept = await api<{ id: number; name: string }>(base, setup.token, 'POST', '/queue', { name: `Fila Mantida ${stamp}`, color: color() });
  const hidden = await api<{ id: number; name: string }>(base, setup.token, 'POST', '/queue', { name: `Fila Oculta ${stamp}`, color: color() });
  await openTicket(base, setup, `Cliente Mantido ${stamp}`, kept.id);
  await openTicket(base, setup, `Cliente Oculto ${stamp}`, hidden.id);

  await login(page);
  const keptItem = page.getByTestId('ticket-item').filter({ hasText: `Cliente Mantido ${stamp}` });
  const hiddenItem = page.getByTestId('ticket-item').filter({ hasText: `Cliente Oculto ${stamp}` });
  await expect(keptItem).toBeVisible();
  await expect(hiddenItem).toBeVisible();

  await page.getByTestId('queue-filter').click();
  await page.getByRole('option', { name: hidden.name }).click();
  await page.keyboard.press('Escape');
  await expect(hiddenItem).toHaveCount(0);
  await expect(keptItem).toBeVisible();
});

test('user filter: the search tab lists only the tickets of the chosen agent', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const setup = await desk(base);
  const stamp = uniqueStamp().text;
  const agentName = `Agente Filtro ${stamp}`;
  const agent = await api<{ id: number }>(base, setup.token, 'POST', '/users', {
    name: agentName,
    email: `filtro-${stamp}@example.com`,
    password: 'Agent123',
    profile: 'user',
  });
  const theirs = await openTicket(base, setup, `Cliente do Agente ${stamp}`);
  await api(base, setup.token, 'PUT', `/tickets/${theirs.id}`, { userId: agent.id });
  await openTicket(base, setup, `Cliente do Admin ${stamp}`);

  await login(page);
  // Another agent's tickets are listed to an admin only with "show all".
  await page.getByTestId('show-all').check();
  await page.getByTestId('tab-search').click();
  await page.getByTestId('user-filter').getByRole('combobox').fill(agentName);
  await page.getByRole('option', { name: agentName }).click();
  const items = page.getByTestId('ticket-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(`Cliente do Agente ${stamp}`);
});
