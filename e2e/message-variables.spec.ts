import { api, apiLogin, expect, login, test, uniqueStamp } from './fixtures';

/**
 * Message variables (issue 30): a quick message is written with the variable
 * chips (buttons that insert at the cursor), then used in a conversation; the
 * customer's phone gets it filled for the ticket's contact, no placeholder left.
 * The chips are found by the token they insert, whatever the interface language.
 */

test('quick message written with the variable chips reaches the customer filled in', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const { id: connectionId } = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Sandbox ${uniqueStamp().text}`, provider: 'sandbox' });
  // A valid mobile (55 31 9 + 8 digits): the phone normaliser refuses anything else.
  const number = `55319${uniqueStamp().digits.slice(1)}${Math.floor(Math.random() * 10)}`;
  const { id: contactId } = await api<{ id: number }>(base, token, 'POST', '/contacts', { name: 'Helena Prado', number });
  const ticket = await api<{ id: number; uuid: string }>(base, token, 'POST', '/tickets', { contactId, whatsappId: connectionId, status: 'open' });
  const shortcode = `vars${uniqueStamp().text}`;

  await login(page);
  await page.goto('/quick-messages');
  await page.getByTestId('quick-message-add').click();
  const dialog = page.getByTestId('quick-message-dialog');
  await dialog.getByTestId('quick-message-shortcode').fill(shortcode);
  const message = dialog.getByTestId('quick-message-message');
  await message.fill('Olá , seu protocolo é .');
  // The cursor after "Olá ": the chip inserts there, and the cursor stays after what it inserted.
  await message.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(4, 4));
  await dialog.locator('[data-token="{{firstName}}"]').click();
  await expect(message).toHaveValue('Olá {{firstName}}, seu protocolo é .');
  await message.press('End');
  await message.press('ArrowLeft');
  // From the keyboard: Enter on a focused chip inserts.
  await dialog.locator('[data-token="{{protocol}}"]').focus();
  await page.keyboard.press('Enter');
  await expect(message).toHaveValue('Olá {{firstName}}, seu protocolo é {{protocol}}.');
  await dialog.getByTestId('quick-message-save').click();
  await expect(dialog).toHaveCount(0);

  await page.goto(`/tickets/${ticket.uuid}`);
  const input = page.getByTestId('composer-input');
  await input.fill(`/${shortcode.slice(0, 6)}`);
  await page.getByTestId('quick-answer-option').filter({ hasText: shortcode }).click();
  await page.getByTestId('composer-send').click();
  const filled = `Olá Helena, seu protocolo é ${ticket.id}.`;
  await expect(page.getByTestId('message-item').filter({ hasText: filled })).toBeVisible();
  const outbox = await api<{ body: string }[]>(base, token, 'GET', `/sandbox/${connectionId}/outbox?number=${number}`);
  expect(outbox.map((entry) => entry.body.replace(/^\*.+:\*\n/, ''))).toEqual([filled]);
});
