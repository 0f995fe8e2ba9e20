import type { Page } from '@playwright/test';
import { axeViolations, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * Company API keys (issue 34 item 2): an admin creates a key in Settings → API, sees its
 * secret once, an outside system uses it (a plain HTTP call, as curl would), and revoking
 * it in the page ends it at once. Shown at 1440 px and 390 px, in pt, en and es.
 */

const shots = process.env.E2E_SCREENSHOTS_DIR;

/** axe's WCAG 2.1 A/AA violations inside the page's main (and any open dialog), one line each. */

async function keyCall(baseURL: string, key: string, url: string): Promise<number> {
  const response = await fetch(`${baseURL}${url}`, { headers: { authorization: `Bearer ${key}` } });
  return response.status;
}

async function createKey(page: Page, name: string, scopes: string[]): Promise<string> {
  await page.getByTestId('api-key-add').click();
  const dialog = page.getByTestId('api-key-dialog');
  await dialog.getByTestId('api-key-name').fill(name);
  for (const scope of scopes) await dialog.getByTestId(`api-key-scope-${scope}`).check();
  await dialog.getByTestId('api-key-save').click();
  await expect(dialog).toHaveCount(0);
  const secret = page.getByTestId('api-key-secret-dialog');
  await expect(secret).toBeVisible();
  const key = await secret.getByTestId('api-key-secret-value').inputValue();
  expect(key).toMatch(/^atk_[0-9a-f]{16}_/);
  return key;
}

test('api keys: an admin creates a key, sees it once, a system uses it on its scopes only, and revoking it ends it', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(() => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
  });
  const stamp = uniqueStamp();
  const name = `CRM ${stamp.text}`;
  await login(page);
  await page.goto('/settings');
  await page.getByTestId('settings-tab-api').click();
  await expect(page).toHaveURL(/tab=api/);
  await expect(page.getByTestId('api-keys-tab')).toBeVisible();

  const key = await createKey(page, name, ['tickets:read', 'contacts:read']);
  if (shots) await page.screenshot({ path: `${shots}/api-key-created.png` });
  await page.getByTestId('api-key-secret-done').click();
  await expect(page.getByTestId('api-key-secret-dialog')).toHaveCount(0);

  const row = page.locator(`[data-testid="api-key-row"][data-api-key-name="${name}"]`);
  await expect(row).toHaveAttribute('data-api-key-status', 'active');
  await expect(row.getByTestId('api-key-last-used')).toHaveText('Nunca');
  // Shown once: neither the page nor a reload of it carries the secret again.
  expect(await page.content()).not.toContain(key);
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(key);

  // An outside system: its scopes' routes answer, the others refuse it.
  const base = baseURL ?? '';
  expect(await keyCall(base, key, '/tickets')).toBe(200);
  expect(await keyCall(base, key, '/contacts')).toBe(200);
  const refused = await fetch(`${base}/tickets`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ error: 'ERR_API_KEY_SCOPE', scope: 'tickets:write' });
  expect(await keyCall(base, key, '/users')).toBe(403);

  // Its last use (time and address) shows after a reload.
  await page.reload();
  await expect(row.getByTestId('api-key-last-used')).toContainText('127.0.0.1');
  if (shots) await page.screenshot({ path: `${shots}/api-keys.png` });
  expect(await axeViolations(page)).toEqual([]);

  await row.getByTestId('api-key-revoke').click();
  await page.getByRole('dialog').getByRole('button').last().click();
  await expect(row).toHaveAttribute('data-api-key-status', 'revoked');
  expect(await keyCall(base, key, '/tickets')).toBe(401);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const [language, addLabel] of [
    ['en', 'Create key'],
    ['es', 'Crear clave'],
  ] as const) {
    test(`api keys: the API tab and its dialog stay on screen at 390 px (${language})`, async ({ page }) => {
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), language);
      await login(page);
      await page.goto('/settings?tab=api');
      const add = page.getByTestId('api-key-add');
      await expect(add).toHaveText(addLabel);
      await expect(page.getByTestId('api-key-row').first().or(page.getByTestId('api-keys-empty'))).toBeVisible();
      const onScreen = async (locator: ReturnType<typeof page.getByTestId>) => {
        const box = await locator.boundingBox();
        expect(box, 'rendered').not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      };
      await onScreen(add);
      await expectNoSideScroll(page, 390);
      if (shots) await page.screenshot({ path: `${shots}/api-keys-phone-${language}.png` });

      await add.click();
      const dialog = page.getByTestId('api-key-dialog');
      await onScreen(dialog.getByTestId('api-key-name'));
      await onScreen(dialog.getByTestId('api-key-save'));
      // Nothing picked: the form says so and sends nothing.
      await dialog.getByTestId('api-key-save').click();
      await expect(dialog).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      if (shots) await page.screenshot({ path: `${shots}/api-key-dialog-phone-${language}.png` });
      await dialog.getByTestId('api-key-cancel').click();
      await expect(dialog).toHaveCount(0);
    });
  }
});
