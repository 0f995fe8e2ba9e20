import path from 'node:path';
import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * The dashboard (issue 21) of the seeded company: the counters show the tickets of
 * this month, change with the period, and a ticket closed elsewhere (the API, as
 * another agent's browser would) moves them live.
 */
test('dashboard: counters of the seeded company, the period filter, and a close elsewhere updating them live', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const token = await apiLogin(base);
  const stamp = uniqueStamp();
  const connection = await api<{ id: number }>(base, token, 'POST', '/whatsapp', { name: `Painel ${stamp.text}`, provider: 'sandbox' });
  const me = await api<{ id: number }>(base, token, 'GET', '/auth/me');
  const said = await api<{ ticketId: number }>(base, token, 'POST', `/sandbox/${connection.id}/inbound`, { from: `55479${stamp.digits}`, name: `Nina ${stamp.text}`, body: 'Bom dia' });
  await api(base, token, 'PUT', `/tickets/${said.ticketId}`, { status: 'open', userId: me.id });

  const counters = async () => api<{ counters: { supportHappening: number; supportFinished: number; supportPending: number } }>(base, token, 'GET', '/dashboard');
  const before = (await counters()).counters;

  await login(page);
  await page.goto('/');
  await expect(page.getByTestId('dashboard-counter-supportHappening')).toHaveText(String(before.supportHappening));
  await expect(page.getByTestId('dashboard-counter-supportFinished')).toHaveText(String(before.supportFinished));
  await expect(page.getByTestId('dashboard-attendant').first()).toBeVisible();
  await expect(page.getByTestId('dashboard-chart-days')).toBeVisible();

  // Closed elsewhere: the open page follows, without a reload.
  await api(base, token, 'PUT', `/tickets/${said.ticketId}`, { status: 'closed' });
  await expect(page.getByTestId('dashboard-counter-supportFinished')).toHaveText(String(before.supportFinished + 1), { timeout: 15_000 });
  await expect(page.getByTestId('dashboard-counter-supportHappening')).toHaveText(String(before.supportHappening - 1));

  // The period filter: the last 3 days hold this test's ticket too.
  await page.getByTestId('dashboard-filter-type').locator('..').click();
  await page.getByRole('option', { name: /period|período/i }).click();
  await page.getByTestId('dashboard-period').locator('..').click();
  await page.getByRole('option', { name: /^(Last 3 days|Últimos 3 dias|Últimos 3 días)$/ }).click();
  await page.getByTestId('dashboard-apply').click();
  const last3 = (await api<{ counters: { supportFinished: number } }>(base, token, 'GET', '/dashboard?days=3')).counters;
  await expect(page.getByTestId('dashboard-counter-supportFinished')).toHaveText(String(last3.supportFinished));

  // Screenshots (light, dark) for the README, desktop and phone.
  const folder = path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
  for (const [size, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    await page.setViewportSize(viewport);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('preferredTheme', value), theme);
      await page.goto('/');
      await expect(page.getByTestId('dashboard-counter-supportFinished')).toBeVisible();
      await expect(page.getByTestId('dashboard-chart-users')).toBeVisible();
      await expectNoSideScroll(page, viewport.width);
      await page.screenshot({ path: path.join(folder, `dashboard-${size === 'phone' ? 'phone-' : ''}${theme}.png`), fullPage: size === 'desktop' });
    }
  }
});
