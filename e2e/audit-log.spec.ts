import { api, apiLogin, axeViolations, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * The audit log (issue 35): what an admin changes (a queue, a user) is listed with who did it
 * and from where, the action filter narrows the list, and the page stays readable at 390 px,
 * in pt, en and es (no raw text keys), with no axe violation.
 */

const shots = process.env.E2E_SCREENSHOTS_DIR;


test('audit log: changes are listed with who and where, filtered by action, at 1440 and 390 px in pt, en and es', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const base = baseURL ?? '';
  const stamp = uniqueStamp();
  const token = await apiLogin(base);
  const queueName = `Auditoria ${stamp.text}`;
  const queue = await api<{ id: number }>(base, token, 'POST', '/queue', { name: queueName, color: `#${stamp.digits.slice(-6).padStart(6, '0')}` });
  await api(base, token, 'POST', '/users', { name: `Auditado ${stamp.text}`, email: `auditado-${stamp.text}@example.com`, password: 'Agent123', profile: 'user' });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(() => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
  });
  await login(page);
  await page.goto('/audit-logs');
  const queueRow = page.locator(`[data-testid="audit-row"][data-action="queue.created"]`).filter({ hasText: `#${queue.id}` });
  await expect(queueRow).toBeVisible();
  await expect(queueRow).toContainText('Admin');
  await expect(queueRow.getByTestId('audit-changes')).toContainText(queueName);
  // Fields by their names in the reader's language, values as words (not `autoAssign: false`).
  await expect(queueRow.locator('[data-field="name"]')).toHaveText(`Nome: ${queueName}`);
  await expect(queueRow.locator('[data-field="slaWarnPercent"]')).toContainText('Aviso de meta (%): ');
  const userRow = page.locator('[data-testid="audit-row"][data-action="user.created"]').filter({ hasText: `Auditado ${stamp.text}` });
  await expect(userRow.locator('[data-field="super"]')).toHaveText('Super usuário: não');
  await expect(userRow.locator('[data-field="profile"]')).toHaveText('Perfil: Usuário');
  await expect(queueRow.locator('[data-field="autoAssign"]')).toHaveText('Distribuição automática: Desligada (os atendentes aceitam)');
  expect(await axeViolations(page)).toEqual([]);
  if (shots) await page.screenshot({ path: `${shots}/audit-log-1440.png` });

  // The action filter keeps only that action.
  await page.getByTestId('audit-filter-action').locator('..').getByRole('combobox').click();
  await page.getByTestId('audit-action-option-queue.created').click();
  await expect(queueRow).toBeVisible();
  await expect(page.locator('[data-testid="audit-row"]:not([data-action="queue.created"])')).toHaveCount(0);
  // The action menu's closing transition is over (a menu still fading at the desktop's width would widen the phone's page).
  await expect(page.getByRole('listbox')).toBeHidden();

  // On a phone: who and where sit under the action, nothing runs off the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(queueRow).toBeVisible();
  await expectNoSideScroll(page, 390);
  if (shots) await page.screenshot({ path: `${shots}/audit-log-390.png` });

  for (const [language, title, name] of [
    ['en', 'Audit log', 'Name'],
    ['es', 'Registro de auditoría', 'Nombre'],
  ] as const) {
    await page.evaluate((lng) => localStorage.setItem('i18nextLng', lng), language);
    await page.goto('/audit-logs');
    await expect(page.locator('[data-testid="audit-row"]').first()).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(title);
    expect(await page.locator('main').innerText()).not.toMatch(/auditLogs\.[a-z]/);
    await expect(queueRow.locator('[data-field="name"]')).toHaveText(`${name}: ${queueName}`);
    await expectNoSideScroll(page, 390);
  }
});
