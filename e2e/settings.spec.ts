import type { Page } from '@playwright/test';
import { apiLogin, expect, login, test } from './fixtures';
import { COMPANY_TIME_ZONE } from './time-zone';

/**
 * The settings page (spec part 2 §2.15) end to end: options saved on change and
 * kept after a reload; scheduleType `company` bringing the Schedules tab, whose
 * hours are kept after a reload; and, for the super user, plans and companies.
 *
 * Every test puts back what it changed (through the API), because other specs
 * share the server and read these settings (business hours, calls).
 */

// Three screens, a reload each and several saves: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 60_000 });

/** Calls the test makes itself go straight to the API (in CI the API serves the web app too). */
const apiUrl = (baseURL: string | undefined) => process.env.E2E_API_URL ?? baseURL ?? '';
const SAVED = /Setting saved successfully!|Configuração salva com sucesso!|¡Configuración guardada con éxito!/;
const HOURS_SAVED = /Hours saved successfully!|Horários salvos com sucesso!|¡Horarios guardados con éxito!/;

interface ScheduleEntry {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

function client(base: string, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    call,
    setting: async (key: string) => (await call<{ key: string; value: string }[]>('GET', '/settings')).find((s) => s.key === key)?.value,
    putSetting: (key: string, value: string) => call('PUT', `/settings/${key}`, { key, value }),
  };
}

/**
 * The page is lazy-loaded and reads /auth/me and /settings first; on a busy
 * machine (a dev server transforming modules) that can take longer than the
 * default 5 s, so the first look after a navigation waits longer.
 */
const PAGE_READY = { timeout: 20_000 };

/** Opens a setting's choice list and picks a value; waits until the server has answered. */
async function chooseSetting(page: Page, key: string, value: string) {
  const field = page.getByTestId(`setting-${key}`);
  await field.getByRole('combobox').click();
  await page.getByTestId(`setting-${key}-${value}`).click();
  await expect(page.getByText(SAVED).first()).toBeVisible();
  await expect(field).toHaveAttribute('data-saving', 'false');
  await expect(field).toHaveAttribute('data-value', value);
}

test('settings: scheduleType company shows the Schedules tab; the hours are kept after a reload', async ({ page, baseURL }) => {
  const api = client(apiUrl(baseURL), await apiLogin(apiUrl(baseURL)));
  const { companyId } = await api.call<{ companyId: number }>('GET', '/auth/me');
  const originalType = (await api.setting('scheduleType')) ?? 'disabled';
  const originalHours = (await api.call<{ schedules: ScheduleEntry[] }>('GET', `/companies/${companyId}`)).schedules;
  await api.putSetting('scheduleType', 'disabled');
  try {
    await login(page);
    await page.goto('/settings');
    await expect(page.getByTestId('setting-scheduleType')).toHaveAttribute('data-value', 'disabled', PAGE_READY);
    await expect(page.getByTestId('settings-tab-schedules')).toHaveCount(0);

    await chooseSetting(page, 'scheduleType', 'company');
    await page.getByTestId('settings-tab-schedules').click();
    await expect(page).toHaveURL(/\/settings\?tab=schedules$/);
    const hours = page.getByTestId('company-hours-form');
    await expect(hours).toBeVisible();

    // A half-typed time is refused, and nothing is saved.
    await hours.getByTestId('company-monday-start').fill('9');
    await page.getByTestId('company-hours-save').click();
    await expect(page.getByTestId('company-day-monday').getByText(/HH:mm/)).toBeVisible();

    const typed: Record<string, [string, string]> = { monday: ['09:15', '17:45'], saturday: ['', ''], sunday: ['10:00', '14:00'] };
    for (const [day, [start, end]] of Object.entries(typed)) {
      await hours.getByTestId(`company-${day}-start`).fill(start);
      await hours.getByTestId(`company-${day}-end`).fill(end);
    }
    await page.getByTestId('company-hours-save').click();
    await expect(page.getByText(HOURS_SAVED).first()).toBeVisible();

    await page.reload();
    const reloaded = page.getByTestId('company-hours-form');
    await expect(reloaded).toBeVisible(PAGE_READY);
    await expect(page.getByTestId('setting-scheduleType')).toHaveCount(0);
    for (const [day, [start, end]] of Object.entries(typed)) {
      await expect(reloaded.getByTestId(`company-${day}-start`)).toHaveValue(start);
      await expect(reloaded.getByTestId(`company-${day}-end`)).toHaveValue(end);
    }
    // Days not touched keep the suggested hours, now stored.
    await expect(reloaded.getByTestId('company-tuesday-start')).toHaveValue('08:00');
    await expect(reloaded.getByTestId('company-hours-not-configured')).toHaveCount(0);

    const stored = (await api.call<{ schedules: ScheduleEntry[] }>('GET', `/companies/${companyId}`)).schedules;
    expect(stored).toHaveLength(7);
    expect(stored.find((s) => s.weekdayEn === 'monday')).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:15', endTime: '17:45', startTimeA: '09:15', endTimeA: '17:45', startTimeB: '', endTimeB: '' });
    expect(stored.find((s) => s.weekdayEn === 'saturday')).toMatchObject({ startTime: '', endTime: '' });

    // Back on Options, the choice made before the reload is still there.
    await page.getByTestId('settings-tab-options').click();
    await expect(page.getByTestId('setting-scheduleType')).toHaveAttribute('data-value', 'company');
  } finally {
    await api.call('PUT', `/companies/${companyId}/schedules`, { schedules: originalHours });
    await api.putSetting('scheduleType', originalType);
  }
});

test('settings: an option changed on the page is kept after a reload', async ({ page, baseURL }) => {
  const api = client(apiUrl(baseURL), await apiLogin(apiUrl(baseURL)));
  const original = (await api.setting('call')) ?? 'enabled';
  const changed = original === 'enabled' ? 'disabled' : 'enabled';
  try {
    await login(page);
    await page.goto('/settings');
    await expect(page.getByTestId('setting-call')).toHaveAttribute('data-value', original, PAGE_READY);
    await chooseSetting(page, 'call', changed);
    expect(await api.setting('call')).toBe(changed);

    await page.reload();
    await expect(page.getByTestId('setting-call')).toHaveAttribute('data-value', changed, PAGE_READY);
  } finally {
    await api.putSetting('call', original);
  }
});

test('settings: the super user adds a plan and a company on it, renews it, and deletes both', async ({ page, baseURL }) => {
  const api = client(apiUrl(baseURL), await apiLogin(apiUrl(baseURL)));
  const suffix = Date.now().toString(36);
  const planName = `Plano E2E ${suffix}`;
  const companyName = `Empresa E2E ${suffix}`;
  let planId = 0;
  let companyId = 0;
  try {
    await login(page);
    await page.goto('/settings');

    // Plans tab: add.
    await page.getByTestId('settings-tab-plans').click(PAGE_READY);
    await page.getByTestId('plan-add').click();
    const planDialog = page.getByTestId('plan-dialog');
    await planDialog.getByTestId('plan-name').fill(planName);
    await planDialog.getByTestId('plan-users').fill('3');
    // The price as a Brazilian types it; 0 (connections, queues) says it means no limit.
    await expect(planDialog).toContainText(/0 = (no limit|sem limite|sin límite)/);
    await planDialog.getByTestId('plan-value').fill('49,90');
    await planDialog.getByTestId('plan-useKanban').uncheck();
    await planDialog.getByTestId('plan-save').click();
    await expect(planDialog).toHaveCount(0);
    const planRow = page.getByTestId('plan-row').filter({ hasText: planName });
    await expect(planRow).toContainText('R$');
    await expect(planRow).toContainText('49,90');
    await expect(planRow).toContainText('∞');
    planId = Number(await planRow.getAttribute('data-plan-id'));
    const plan = await api.call<{ users: number; value: number; useKanban: boolean; useCampaigns: boolean }>('GET', `/plans/${planId}`);
    expect(plan).toMatchObject({ users: 3, value: 49.9, useKanban: false, useCampaigns: true });

    // Companies tab: add on that plan, with a due date 5 days away (yellow row).
    await page.getByTestId('settings-tab-companies').click();
    await expect(page).toHaveURL(/tab=companies/);
    await page.getByTestId('company-add').click();
    const dialog = page.getByTestId('company-dialog');
    await dialog.getByTestId('company-name').fill(companyName);
    await dialog.getByTestId('company-email').fill(`e2e-${suffix}@empresa.test`);
    await dialog.getByRole('combobox', { name: /Plan/ }).click();
    await page.getByTestId(`company-plan-${planId}`).click();
    // Five days after the company's today (its zone's: near midnight UTC the runner's date is the next day).
    const [year = 0, month = 1, day = 1] = new Intl.DateTimeFormat('en-CA', { timeZone: COMPANY_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })
      .format(new Date())
      .split('-')
      .map(Number);
    const due = new Date(year, month - 1, day + 5);
    const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await dialog.getByTestId('company-dueDate').fill(iso(due));
    await dialog.getByTestId('company-save').click();
    await expect(dialog).toHaveCount(0);
    const row = page.getByTestId('company-row').filter({ hasText: companyName });
    await expect(row).toHaveAttribute('data-due-colour', 'yellow');
    companyId = Number(await row.getAttribute('data-company-id'));

    // Renewal: one month later, no longer coloured.
    await row.getByTestId('company-edit').click();
    await expect(dialog.getByTestId('company-dueDate')).toHaveValue(iso(due));
    await dialog.getByTestId('company-renew').click();
    const renewed = new Date(due.getFullYear(), due.getMonth() + 1, 1);
    renewed.setDate(Math.min(due.getDate(), new Date(renewed.getFullYear(), renewed.getMonth() + 1, 0).getDate()));
    await expect(dialog.getByTestId('company-dueDate')).toHaveValue(iso(renewed));
    await dialog.getByTestId('company-save').click();
    await expect(dialog).toHaveCount(0);
    await expect(row).toHaveAttribute('data-due-colour', '');
    const company = await api.call<{ planId: number; dueDate: string }>('GET', `/companies/${companyId}`);
    expect(company.planId).toBe(planId);
    // Stored as that calendar date (DECISIONS 15).
    expect(company.dueDate).toBe(iso(renewed));

    // Its invoice was made when it was created on the paid plan (due in 5 days); the renewed
    // due date's invoice is a month away from the job: the super user issues it now.
    await row.getByTestId('company-issue-invoice').click();
    await expect(page.locator('[data-toast]').filter({ hasText: companyName })).toContainText('49,90');

    // Delete the company, then its plan.
    await row.getByTestId('company-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(row).toHaveCount(0);
    companyId = 0;
    await page.getByTestId('settings-tab-plans').click();
    await planRow.getByTestId('plan-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(planRow).toHaveCount(0);
    planId = 0;
  } finally {
    if (companyId) await api.call('DELETE', `/companies/${companyId}`).catch(() => undefined);
    if (planId) await api.call('DELETE', `/plans/${planId}`).catch(() => undefined);
  }
});
