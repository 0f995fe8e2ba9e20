import { api, apiLogin, expect, expectNoSideScroll, login, test } from './fixtures';

/**
 * The message menu's Edit, React and Forward (issue 32) on a phone-sized screen (390 px), against
 * the real server and its sandbox connection: what the agent does and what the customer's phone gets.
 */
test.describe('message actions', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('on a phone: edit our text, react to the customer, forward to another contact', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const base = baseURL ?? '';
    const token = await apiLogin(base);
    const stamp = Date.now().toString(36);
    const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Sandbox ${stamp}`, provider: 'sandbox' });
    const number = `55119${String(Date.now()).slice(-8)}`;
    const { ticketId } = await api<{ ticketId: number }>(base, token, 'POST', `/sandbox/${connection.id}/inbound`, { from: number, name: 'Cliente Ações', body: 'Qual o valor?' });
    const ticket = await api<{ uuid: string }>(base, token, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: 1 });
    await api(base, token, 'POST', `/messages/${ticketId}`, { body: 'R$ 10' });
    const otherNumber = `55219${String(Date.now()).slice(-8)}`;
    await api(base, token, 'POST', '/contacts', { name: `Destino ${stamp}`, number: otherNumber });

    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
    await login(page);
    await page.goto(`/tickets/${ticket.uuid}`);
    const ours = page.getByTestId('message-item').filter({ hasText: 'R$ 10' });
    const theirs = page.getByTestId('message-item').filter({ hasText: 'Qual o valor?' });

    // Edit, by keyboard: the menu, the item, the text, Enter.
    await ours.getByTestId('message-menu').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('message-edit').click();
    const input = page.getByTestId('edit-message-input');
    await input.fill('R$ 12');
    await input.press('Enter');
    await expect(page.getByTestId('message-item').filter({ hasText: 'R$ 12' }).getByTestId('message-edited')).toBeVisible();
    const outbox = await api<{ body: string }[]>(base, token, 'GET', `/sandbox/${connection.id}/outbox?number=${number}`);
    expect(outbox.map((entry) => entry.body)).toContain('R$ 12');

    // React with a heart.
    await theirs.getByTestId('message-menu').click();
    await page.getByTestId('message-react').click();
    await page.getByRole('menuitem', { name: 'React with ❤️' }).click();
    await expect(theirs.getByTestId('message-reactions')).toHaveText('❤️');

    // Forward to another contact.
    await theirs.getByTestId('message-menu').click();
    await page.getByTestId('message-forward').click();
    await page.getByTestId('forward-search').fill(otherNumber.slice(-6));
    await page.getByRole('option', { name: new RegExp(`Destino ${stamp}`) }).click();
    await page.getByTestId('forward-send').click();
    await expect(page.locator('[data-toast]').filter({ hasText: 'Forwarded to 1 contact' })).toBeVisible();
    const forwarded = await api<{ body: string }[]>(base, token, 'GET', `/sandbox/${connection.id}/outbox?number=${otherNumber}`);
    expect(forwarded.map((entry) => entry.body)).toEqual(['Qual o valor?']);

    // Nothing wider than the phone.
    await expectNoSideScroll(page, 390);
  });
});
