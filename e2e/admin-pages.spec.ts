import { api, apiLogin, expect, login, test, uniqueStamp } from './fixtures';

/**
 * The integrations page (create and edit one) and the profile modal (a user
 * changes its own name and password), in English.
 */

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
});

test('integrations: a Typebot integration is made in the dialog, then renamed', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const name = `Typebot ${uniqueStamp().text}`;

  await login(page);
  await page.goto('/queue-integration');
  await page.getByTestId('integration-add').click();
  const dialog = page.getByTestId('integration-dialog');
  await dialog.getByTestId('integration-type').click();
  await page.getByTestId('integration-type-typebot').click();
  await dialog.getByTestId('integration-name').fill(name);
  await dialog.getByTestId('integration-urlN8N').fill('https://typebot.example.com');
  await dialog.getByTestId('integration-typebotSlug').fill('atendimento-inicial');
  await dialog.getByTestId('integration-save').click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('integration-row').filter({ hasText: name });
  await expect(row).toHaveAttribute('data-integration-type', 'typebot');
  const id = Number(await row.getAttribute('data-integration-id'));

  await row.getByTestId('integration-edit').click();
  await expect(dialog.getByTestId('integration-typebotSlug')).toHaveValue('atendimento-inicial');
  await dialog.getByTestId('integration-name').fill(`${name} v2`);
  await dialog.getByTestId('integration-save').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('integration-row').filter({ hasText: `${name} v2` })).toBeVisible();

  const stored = await api<{ name: string; type: string; urlN8N: string; typebotSlug: string }>(base, token, 'GET', `/queueIntegration/${id}`);
  expect(stored).toMatchObject({ name: `${name} v2`, type: 'typebot', urlN8N: 'https://typebot.example.com', typebotSlug: 'atendimento-inicial' });
});

test('profile modal: a user changes its own name and password', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp().text;
  const agent = { email: `perfil-${stamp}@example.com`, password: 'Agent123' };
  await api(base, token, 'POST', '/users', { name: 'Agente Antigo', ...agent, profile: 'user' });

  await login(page, agent.email, agent.password);
  await expect(page.getByTestId('greeting')).toContainText('Agente Antigo');
  await page.getByTestId('profile-button').click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit user' });
  await expect(modal.getByLabel('Name')).toHaveValue('Agente Antigo');
  await modal.getByLabel('Name').fill('Agente Novo');
  await modal.getByLabel('Password').fill('NovaSenha123');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal).toHaveCount(0);
  await expect(page.getByTestId('greeting')).toContainText('Agente Novo');

  await page.reload();
  await expect(page.getByTestId('greeting')).toContainText('Agente Novo');
  await page.getByTestId('profile-button').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  await login(page, agent.email, 'NovaSenha123');
  await expect(page.getByTestId('greeting')).toContainText('Agente Novo');
});
