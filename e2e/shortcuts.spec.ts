import path from 'node:path';
import { api, apiLogin, expect, login, test } from './fixtures';

/**
 * The ticket screen's keyboard shortcuts (issue 35 item 6), driven by keyboard only once the
 * tickets exist: next/previous ticket, Escape out of the composer, focus the composer, a quick reply,
 * accept a waiting ticket, resolve it, and the `?` help dialog at 1440 and 390 px.
 */

const SHOTS_DIR = path.join(import.meta.dirname, 'artifacts/screenshots');
const color = () => `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;

interface Ticket {
  id: number;
  uuid: string;
}

test('shortcuts: move through the list, focus the composer, quick reply, accept, resolve, and the help dialog', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const admin = await apiLogin(base);
  const stamp = Date.now().toString(36);
  const queue = await api<{ id: number }>(base, admin, 'POST', '/queue', { name: `Atalhos ${stamp}`, color: color() });
  const connection = await api<{ id: number }>(base, admin, 'POST', '/whatsapp', { name: `Sandbox ${stamp}`, provider: 'sandbox' });
  const agent = { email: `atalhos-${stamp}@example.com`, password: 'Agent123' };
  const user = await api<{ id: number }>(base, admin, 'POST', '/users', { name: 'Agente Atalho', ...agent, profile: 'user', queueIds: [queue.id] });

  // Three customers write: two tickets are given to the agent, one waits.
  const tickets: Ticket[] = [];
  for (const [index, name] of ['Cliente Um', 'Cliente Dois', 'Cliente Espera'].entries()) {
    const number = `55218${String(Date.now()).slice(-7)}${index}`;
    await api(base, admin, 'POST', `/sandbox/${connection.id}/inbound`, { from: number, name, body: `Olá ${index}` });
    const found = await api<{ tickets: Ticket[] }>(base, admin, 'GET', `/tickets?status=pending&showAll=true&searchParam=${number}`);
    const ticket = found.tickets[0];
    if (!ticket) throw new Error(`no ticket for ${name}`);
    tickets.push(ticket);
  }
  for (const ticket of tickets.slice(0, 2)) await api(base, admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: user.id, queueId: queue.id });
  const waiting = tickets[2]!;
  const shortcode = `atalho${stamp}`;
  await api(base, admin, 'POST', '/quick-messages', { shortcode, message: 'Bom dia! Como posso ajudar?', geral: true });

  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, agent.email, agent.password);
  await expect(page.getByTestId('ticket-item')).toHaveCount(2);

  const composer = page.getByTestId('composer-input');
  // A conversation that opens focuses its composer; Escape leaves it for the one-letter shortcuts.
  const leaveComposer = async () => {
    await expect(composer).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(composer).not.toBeFocused();
  };

  // j opens the first ticket of the list; the composer takes focus, Escape leaves it.
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const first = page.url();
  await leaveComposer();
  // Alt+ArrowDown the next, k back to the first.
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page).not.toHaveURL(first);
  await expect(page.getByTestId('conversation')).toHaveAttribute('data-status', 'open');
  await leaveComposer();
  await page.keyboard.press('k');
  await expect(page).toHaveURL(first);
  await leaveComposer();
  // r focuses the composer without typing the letter.
  await page.keyboard.press('r');
  await expect(composer).toBeFocused();
  await expect(composer).toHaveValue('');
  await leaveComposer();
  // q starts a quick reply: the composer gets the `/` that lists them as the shortcode is typed.
  await page.keyboard.press('q');
  await expect(composer).toBeFocused();
  await expect(composer).toHaveValue('/');
  await page.keyboard.type(shortcode);
  await expect(page.getByTestId('quick-answer-option').filter({ hasText: shortcode })).toBeVisible();
  await composer.fill('');
  await expect(page.getByTestId('quick-answer-option')).toHaveCount(0);
  await leaveComposer();

  // ? opens the help; Escape closes it and the shortcuts work again.
  await page.keyboard.press('?');
  const dialog = page.getByTestId('shortcuts-dialog').getByRole('dialog');
  // Its fade-in finished, for the screenshot.
  const opened = page.getByTestId('shortcuts-dialog').locator('.MuiDialog-container');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Keyboard shortcuts');
  await expect(dialog).toContainText('Next ticket in the list');
  await expect(opened).toHaveCSS('opacity', '1');
  await page.screenshot({ path: path.join(SHOTS_DIR, 'shortcuts-help-1440.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('shortcuts-dialog')).toBeHidden();

  // A waiting ticket on screen: a accepts it.
  await page.goto(`/tickets/${waiting.uuid}`);
  await expect(page.getByTestId('conversation')).toHaveAttribute('data-status', 'pending');
  await page.keyboard.press('a');
  await expect(page.getByTestId('conversation')).toHaveAttribute('data-status', 'open');
  await expect(page.getByTestId('ticket-item')).toHaveCount(3);

  // The help at phone width.
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout mounts the conversation again, and its composer takes focus.
  await expect(page.getByTestId('view-chat')).toBeVisible();
  await leaveComposer();
  await page.keyboard.press('?');
  await expect(dialog).toBeVisible();
  await expect(opened).toHaveCSS('opacity', '1');
  await page.screenshot({ path: path.join(SHOTS_DIR, 'shortcuts-help-390.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // c resolves the ticket on screen, through the header's own button.
  await page.keyboard.press('c');
  await expect(page).toHaveURL(/\/tickets\/?$/);
  const resolved = await api<{ tickets: { status: string }[] }>(base, admin, 'GET', `/tickets?status=closed&showAll=true&searchParam=Cliente%20Espera`);
  expect(resolved.tickets.length).toBeGreaterThan(0);
});
