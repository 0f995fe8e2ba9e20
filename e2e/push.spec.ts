import type { Page } from '@playwright/test';
import { expect, login, test } from './fixtures';

/**
 * Push notifications (issue 35 item 5) in a real Chromium. What this proves and what it cannot:
 * - the settings dialog (profile menu → Notifications), the permission asked only on the click,
 *   the service worker registered at `/` and the kinds saved on the user's profile;
 * - a real subscription is not made: Playwright's contexts are off the record, where Chromium
 *   refuses the Push API, and its push service (FCM) is out of reach here. The encrypted delivery
 *   to a push endpoint is proven by the server's tests (modules/push/push.test.ts);
 * - the service worker's `push` handling: a push is delivered into it through the DevTools
 *   protocol (`ServiceWorker.deliverPushMessage`, what the push service would hand it), and the
 *   notification it shows is read back; a click's action (`openFromNotification`) takes the open
 *   window to the notification's URL (an OS notification cannot be clicked in headless Chromium);
 * - the manifest, and that Chromium finds nothing against installing the app
 *   (`Page.getInstallabilityErrors`) but the off-the-record context itself.
 */

const shots = process.env.E2E_SCREENSHOTS_DIR;

async function openSettings(page: Page): Promise<void> {
  await page.getByTestId('profile-button').click();
  await page.getByTestId('profile-push').click();
  await expect(page.getByTestId('push-settings-dialog')).toBeVisible();
}

test('push: settings, service worker push and click, installable app', async ({ page, context, baseURL }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(() => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
  });
  await login(page);
  const origin = new URL(baseURL ?? page.url()).origin;

  // The signed-in app registers the worker at the root scope.
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  expect(new URL(worker.url()).pathname).toBe('/sw.js');

  await openSettings(page);
  const dialog = page.getByTestId('push-settings-dialog');
  await expect(dialog.getByTestId('push-browser-status')).toHaveAttribute('data-subscribed', 'false');
  await expect(dialog.getByTestId('push-devices')).toHaveText('Nenhum navegador recebe seus avisos ainda.');
  if (shots) await page.screenshot({ path: `${shots}/push-settings.png` });

  // A kind turned off is saved on the profile.
  await dialog.getByTestId('push-kind-chatMessages').click();
  await expect(page.getByText('Preferência salva.')).toBeVisible();
  await dialog.getByTestId('push-close').click();
  await expect(dialog).toHaveCount(0);
  await openSettings(page);
  await expect(dialog.getByTestId('push-kind-chatMessages')).not.toBeChecked();
  await dialog.getByTestId('push-kind-chatMessages').click();
  await expect(dialog.getByTestId('push-kind-chatMessages')).toBeChecked();

  // Subscribing is not attempted: Playwright's browser contexts are off the record, where Chromium
  // refuses the Push API outright (it logs "does not support the Push API in incognito mode"), and
  // its push service (FCM) is out of reach here anyway. The permission is granted as a user would.
  await context.grantPermissions(['notifications'], { origin });
  await dialog.getByTestId('push-close').click();
  await expect(dialog).toHaveCount(0);

  // A push delivered into the service worker, as the push service would hand it over.
  const cdp = await context.newCDPSession(page);
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const found = registrations.find((registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted);
      if (found) resolve(found.registrationId);
    });
    void cdp.send('ServiceWorker.enable');
  });
  const payload = { kind: 'ticketMessages', title: 'Nova mensagem de Carla', body: 'Meu pedido chegou?', url: '/contacts', tag: 'ticket-e2e' };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) });
  await expect
    .poll(async () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
      }),
    )
    .toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: '/contacts', kind: 'ticketMessages' } }]);

  // The click's action: the open window goes to the notification's URL.
  await worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; openFromNotification(url: string): Promise<unknown> };
    const [notification] = await scope.registration.getNotifications();
    notification?.close();
    await scope.openFromNotification((notification?.data as { url: string }).url);
  });
  await expect(page).toHaveURL(/\/contacts$/);

  // The manifest and Chromium's installability check.
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as { display: string; icons: { sizes: string }[]; start_url: string };
  expect(manifest.display).toBe('standalone');
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect((await page.request.get('/icons/icon-512.png')).headers()['content-type']).toBe('image/png');
  // Off-the-record contexts are never installable ('in-incognito'): any other reason is a fault of ours.
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
  expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);

  // At 390 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await openSettings(page);
  await expect(page.getByTestId('push-kind-newTickets')).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/push-settings-390.png` });
});
