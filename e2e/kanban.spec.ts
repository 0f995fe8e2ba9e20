import path from 'node:path';
import type { Page } from '@playwright/test';
import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * Tags and the kanban board (issue 18): a tag made a kanban lane on /tags is a
 * lane of the board; a card dragged to it in one browser moves in another
 * user's board live, and the keyboard's "move to" menu brings it back.
 */

/** A random colour: queue colours are unique per company. */
const color = () => `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;

test('a tag made a lane on /tags appears on the board; a card moved in one browser moves in the other', async ({ page, newPage, baseURL }) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp();
  const queue = await api<{ id: number }>(base, token, 'POST', '/queue', { name: `Funil ${stamp.text}`, color: color() });
  const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Sandbox ${stamp.text}`, provider: 'sandbox' });
  const contact = await api<{ id: number }>(base, token, 'POST', '/contacts', { name: `Cliente Funil ${stamp.text}`, number: `55419${stamp.digits.slice(1)}7` });
  const ticket = await api<{ id: number; uuid: string }>(base, token, 'POST', '/tickets', { contactId: contact.id, whatsappId: connection.id, queueId: queue.id, status: 'open' });
  const agent = { email: `funil-${stamp.text}@example.com`, password: 'Agent123' };
  await api(base, token, 'POST', '/users', { name: 'Agente Funil', ...agent, profile: 'user', queueIds: [queue.id] });

  // The admin makes a tag a kanban lane on the tags page.
  const laneName = `Proposta ${stamp.text}`;
  await login(page);
  await page.goto('/tags');
  await page.getByTestId('tag-add').click();
  const dialog = page.getByTestId('tag-dialog');
  await dialog.getByTestId('tag-name').fill(laneName);
  await dialog.getByTestId('tag-color-22a061').click();
  await dialog.getByTestId('tag-kanban').click();
  await dialog.getByTestId('tag-save').click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('tag-row').filter({ hasText: laneName });
  await expect(row.getByTestId('tag-kanban-mark')).toBeVisible();
  const tagId = await row.getAttribute('data-tag-id');
  expect(tagId).toBeTruthy();

  // The agent's board, in its own browser: the new lane, and the card in the lane without tag.
  const other = await newPage({ viewport: { width: 1440, height: 900 } });
  await login(other, agent.email, agent.password);
  await other.goto('/kanban');
  const otherCard = (lane: string) => other.locator(`[data-testid="kanban-lane"][data-lane-id="${lane}"] [data-testid="kanban-card"][data-ticket-id="${ticket.id}"]`);
  await expect(other.locator(`[data-testid="kanban-lane"][data-lane-id="${tagId}"]`)).toBeVisible();
  await expect(otherCard('none')).toBeVisible();

  // The admin drags the card to the new lane.
  await page.goto('/kanban');
  const card = (lane: string) => page.locator(`[data-testid="kanban-lane"][data-lane-id="${lane}"] [data-testid="kanban-card"][data-ticket-id="${ticket.id}"]`);
  const lane = page.locator(`[data-testid="kanban-lane"][data-lane-id="${tagId}"]`);
  await expect(lane.getByText(laneName)).toBeVisible();
  await expect(card('none')).toBeVisible();
  await card('none').dragTo(lane.getByTestId('kanban-lane-scroll'));
  await expect(card(String(tagId))).toBeVisible();
  await expect(card('none')).toHaveCount(0);

  // The agent sees it move without reloading.
  await expect(otherCard(String(tagId))).toBeVisible();
  await expect(otherCard('none')).toHaveCount(0);
  const tagged = await api<{ tags: { id: number }[] }>(base, token, 'GET', `/tickets/${ticket.id}`);
  expect(tagged.tags.map((tag) => tag.id)).toEqual([Number(tagId)]);

  // The agent moves it back with the keyboard; the admin's board follows.
  await otherCard(String(tagId)).getByTestId('kanban-card-move').focus();
  await other.keyboard.press('Enter');
  await other.getByTestId('kanban-move-to-none').focus();
  await other.keyboard.press('Enter');
  await expect(otherCard('none')).toBeVisible();
  await expect(card('none')).toBeVisible();
  await expect(card(String(tagId))).toHaveCount(0);

  // The card opens its ticket.
  await card('none').getByTestId('kanban-card-open').click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));

  // A fuller board for the screenshots: a second lane, and customers who wrote in.
  const second = await api<{ id: number }>(base, token, 'POST', '/tags', { name: `Negociação ${stamp.text}`, color: '#e49b67', kanban: 1 });
  const customers = [
    ['Maria Souza', 'Olá! Gostaria de um orçamento para 3 licenças.'],
    ['João Lima', 'Pode me enviar a proposta por e-mail?'],
    ['Ana Costa', 'Fechado, vamos assinar amanhã.'],
    ['Pedro Alves', 'Qual o prazo de entrega?'],
  ] as const;
  for (const [index, [name, body]] of customers.entries()) {
    const { ticketId } = await api<{ ticketId: number }>(base, token, 'POST', `/sandbox/${connection.id}/inbound`, { from: `55219${stamp.digits}${index}`, name, body });
    if (index === 1) await api(base, token, 'PUT', `/ticket-tags/${ticketId}/${tagId}`, {});
    if (index >= 2) await api(base, token, 'PUT', `/ticket-tags/${ticketId}/${second.id}`, {});
  }
  await shoot(page, '/tags', 'tags', 'tag-row');
  await shoot(page, '/kanban', 'kanban', 'kanban-card');
});

/**
 * Screenshots of a page, light and dark, on a desktop and on a 390 px phone:
 * e2e/artifacts/screenshots, or docs/screenshots under `npm run screenshots`.
 */
async function shoot(page: Page, url: string, name: string, readyTestId: string): Promise<void> {
  const folder = path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
  for (const [size, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    await page.setViewportSize(viewport);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('preferredTheme', value), theme);
      await page.goto(url);
      await expect(page.getByTestId(readyTestId).first()).toBeVisible();
      // Nothing wider than the screen: the board scrolls inside itself.
      await expectNoSideScroll(page, viewport.width);
      await page.screenshot({ path: path.join(folder, `${name}-${size === 'phone' ? 'phone-' : ''}${theme}.png`) });
    }
  }
}
