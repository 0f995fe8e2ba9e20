import path from 'node:path';
import type { Page } from '@playwright/test';
import { api, apiLogin, expect, expectNoSideScroll, login, test, uniqueStamp } from './fixtures';

/**
 * The SaaS lifecycle (issue 23) as a new customer lives it: sign up a company at
 * /signup, sign in and see the trial on /subscription; forget the password, read
 * the code from the mail the real SMTP server received, reset it and sign in; pay
 * the trial's invoice at /financeiro with Pix through the test PSP (scripts/e2e.mjs
 * names it: PIX_PROVIDER=fake) and see
 * CONCLUIDA with the new due date. Screenshots (light, dark, desktop and phone) of
 * the sign-up, the reset's second step, the invoices and the checkout's QR code.
 */
const screenshotsDir = () => path.resolve(process.env.E2E_SCREENSHOTS_DIR ?? path.join(import.meta.dirname, 'artifacts/screenshots'));
const mailbox = process.env.E2E_MAILBOX_URL ?? '';

const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** Screenshots of what the page shows now, in both themes and sizes; `show` brings the page back after a reload. */
async function shoot(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('preferredTheme', value), theme);
      await show();
      await expectNoSideScroll(page, viewport.width, `${name} ${size} fits`);
      await page.screenshot({ path: path.join(screenshotsDir(), `${name}-${size === 'phone' ? 'phone-' : ''}${theme}.png`), animations: 'disabled' });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'));
}

/** The 6-digit code of the `count`-th reset mail to `to` (waits until the SMTP server has received it). */
async function resetCodeFor(to: string, count: number): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const mails = (await (await fetch(`${mailbox}/mails?to=${encodeURIComponent(to)}`)).json()) as { subject: string; raw: string }[];
      const resets = mails.filter((mail) => /senha|password|contraseña/i.test(mail.subject));
      code = /\b(\d{6})\b/.exec(resets[count - 1]?.raw.split(/\r?\n\r?\n/).slice(1).join('\n') ?? '')?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

// The reset ends every session of the user: the first browser's refresh is refused (401).
test.use({ expectedHttpErrors: [401] });

test('billing: sign up, see the trial, reset the password by e-mail, pay the invoice with Pix', async ({ page, baseURL, newPage }) => {
  test.setTimeout(120_000);
  const base = baseURL ?? '';
  const stamp = uniqueStamp();
  const superToken = await apiLogin(base);
  const plan = await api<{ id: number }>(base, superToken, 'POST', '/plans', { name: `Plano Pro ${stamp.text}`, users: 10, connections: 3, queues: 5, value: 149.9 });
  const owner = { name: `Loja ${stamp.text}`, email: `loja-${stamp.text}@example.com`, phone: '11987654321', password: 'Trial2026x' };

  // Sign up.
  await page.addInitScript(() => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/signup');
  const fillSignup = async () => {
    await page.getByTestId('signup-name').fill(owner.name);
    await page.getByTestId('signup-email').fill(owner.email);
    await page.getByTestId('signup-phone').fill(owner.phone);
    await expect(page.getByTestId('signup-phone')).toHaveValue('(11) 98765-4321');
    await page.getByTestId('signup-password').fill(owner.password);
    await page.getByTestId('signup-plan').click();
    await page.getByTestId(`signup-plan-${plan.id}`).click();
  };
  // A weak password is refused on the page, nothing is sent.
  await fillSignup();
  await page.getByTestId('signup-password').fill('weakpass');
  await page.getByTestId('signup-submit').click();
  await expect(page.getByText(/uma letra minúscula e uma maiúscula/).first()).toBeVisible();
  await shoot(page, 'signup', async () => {
    await page.goto('/signup');
    await fillSignup();
  });
  await page.getByTestId('signup-submit').click();
  await expect(page).toHaveURL(/\/login$/);

  // Sign in and see the trial.
  await login(page, owner.email, owner.password);
  await page.goto('/subscription');
  await expect(page.getByTestId('trial-days')).toHaveValue(/\b3\b/);
  await expect(page.locator(`input[value="${owner.email}"]`)).toBeVisible();

  // Forget the password: the code comes by e-mail; the reset ends the other session.
  const other = await newPage({ viewport: { width: 1440, height: 900 } });
  await other.addInitScript(() => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
  });
  await other.goto('/forgetpsw');
  await other.getByTestId('reset-email').fill(owner.email);
  await other.getByTestId('reset-send').click();
  await expect(other.getByTestId('reset-code')).toBeVisible();
  const code = await resetCodeFor(owner.email, 1);
  const newPassword = 'Reset2026y';
  await other.getByTestId('reset-code').fill(code);
  await other.getByTestId('reset-password').fill(newPassword);
  await other.getByTestId('reset-confirm').fill('Different2026');
  await other.getByTestId('reset-submit').click();
  await expect(other).toHaveURL(/\/forgetpsw$/);
  await other.getByTestId('reset-confirm').fill(newPassword);
  await shoot(other, 'reset-step2', async () => {
    await other.reload();
    // A reload starts at step 1 again: send a new code for the screenshot.
    await other.getByTestId('reset-email').fill(owner.email);
    await other.getByTestId('reset-send').click();
    await other.getByTestId('reset-code').fill('');
    await other.getByTestId('reset-password').fill(newPassword);
    await other.getByTestId('reset-confirm').fill(newPassword);
  });
  // One code per screenshot (4) after the first: the latest is the one that counts.
  const latest = await resetCodeFor(owner.email, 5);
  await other.getByTestId('reset-code').fill(latest);
  await other.getByTestId('reset-password').fill(newPassword);
  await other.getByTestId('reset-confirm').fill(newPassword);
  await other.getByTestId('reset-submit').click();
  await expect(other).toHaveURL(/\/login$/);
  await login(other, owner.email, newPassword);

  // Pay the trial's invoice with Pix at the fake PSP.
  await other.goto('/financeiro');
  const row = other.getByTestId('invoice-row').first();
  await expect(row).toContainText('149,90');
  await shoot(other, 'invoices', async () => {
    await other.goto('/financeiro');
    await expect(other.getByTestId('invoice-row').first()).toBeVisible();
    // Pay is on screen at every width.
    const box = await other.locator('[data-testid^="invoice-pay-"]').first().boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(other.viewportSize()?.width ?? 0);
  });
  const pay = other.locator('[data-testid^="invoice-pay-"]').first();
  const openCheckout = async () => {
    await other.goto('/financeiro');
    await other.locator('[data-testid^="invoice-pay-"]').first().click();
    await expect(other.getByTestId('checkout-stepper')).toHaveAttribute('data-step', '1');
    await expect(other.getByTestId('checkout-invoice-value')).toContainText('149,90');
    await other.getByTestId('checkout-next').click();
    await expect(other.getByTestId('checkout-stepper')).toHaveAttribute('data-step', '0');
    await other.getByTestId('checkout-firstName').fill('Ana');
    await other.getByTestId('checkout-lastName').fill('Lima');
    await other.getByTestId('checkout-address2').fill('Rua das Flores, 10');
    await other.getByTestId('checkout-city').fill('São Paulo');
    await other.getByTestId('checkout-state').fill('SP');
    await other.getByTestId('checkout-zipcode').fill('01000-000');
    await other.getByTestId('checkout-country').fill('Brasil');
    await other.getByTestId('checkout-next').click();
    await expect(other.getByTestId('checkout-stepper')).toHaveAttribute('data-step', '2');
    await other.getByTestId('checkout-submit').click();
    await expect(other.getByTestId('pix-qr-image')).toBeVisible();
  };
  await expect(pay).toBeVisible();
  await shoot(other, 'checkout-pix', openCheckout);
  await openCheckout();
  await expect(other.getByTestId('pix-amount')).toContainText('149,90');
  await expect(other.getByTestId('pix-copy-paste')).toContainText(/br\.gov\.bcb\.pix/i);
  await other.getByTestId('pix-sandbox-pay').click();
  const done = other.getByTestId('payment-done');
  await expect(done).toBeVisible();
  // Read as the super user: signing in as the owner here would end the browser's session (account used elsewhere).
  const companies = await api<{ email: string; dueDate: string }[]>(base, superToken, 'GET', '/companies/list');
  // A calendar date (DECISIONS 15), shown as written.
  const dueDate = companies.find((company) => company.email === owner.email)?.dueDate ?? '';
  expect(new Date(`${dueDate}T12:00:00Z`).getTime()).toBeGreaterThan(Date.now() + 25 * 86_400_000);
  const [year, month, day] = dueDate.split('-');
  await expect(done).toContainText(`${day}/${month}/${year}`);
  // Back to / after 4 seconds.
  await expect(other).toHaveURL(/\/$/, { timeout: 10_000 });
  await other.goto('/financeiro');
  await expect(other.getByTestId('invoice-row').first()).toContainText(/Pago|Paid|Pagado/);
});

/**
 * Asaas as the platform's provider (a super user puts an API key in the setting `asaas`;
 * the e2e server's ASAAS_BASE_URL is the fake Asaas it mounts): the checkout offers
 * Pix, boleto and card; a company's admin pays one invoice by card (the card step
 * checked on the page first) and the next by boleto at the test bank, and sees
 * CONCLUIDA each time. Screenshots of the card step, desktop and phone, pt/en/es.
 */
test.describe('with Asaas', () => {
// A refused card is answered 422 (ERR_PAYMENT_REFUSED), which the page shows.
test.use({ expectedHttpErrors: [422] });

test('billing with Asaas: the card step is checked, a card pays one invoice and a boleto the next', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const base = baseURL ?? '';
  const stamp = uniqueStamp();
  const superToken = await apiLogin(base);
  const plan = await api<{ id: number }>(base, superToken, 'POST', '/plans', { name: `Plano Asaas ${stamp.text}`, users: 5, connections: 1, queues: 2, value: 99.9 });
  const owner = { email: `asaas-${stamp.text}@example.com`, password: 'Asaas2026x' };
  const dueDate = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const company = await api<{ id: number }>(base, superToken, 'POST', '/companies', { name: `Loja Asaas ${stamp.text}`, planId: plan.id, dueDate, ...owner });
  await api(base, superToken, 'POST', `/companies/${company.id}/invoices`, {});
  await api(base, superToken, 'PUT', '/settings/asaas', { value: `$aact_e2e_${stamp.text}_0123456789` });
  try {
    await page.addInitScript(() => {
      if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', 'pt');
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, owner.email, owner.password);

    /** From the invoices page to the payment step of the first unpaid invoice, the address and CPF filled. */
    const toPaymentStep = async () => {
      await page.goto('/financeiro');
      await page.locator('[data-testid^="invoice-pay-"]').first().click();
      await expect(page.getByTestId('checkout-invoice-value')).toContainText('99,90');
      await page.getByTestId('checkout-next').click();
      await page.getByTestId('checkout-firstName').fill('Ana');
      await page.getByTestId('checkout-lastName').fill('Lima');
      await page.getByTestId('checkout-address2').fill('Rua das Flores, 10');
      await page.getByTestId('checkout-city').fill('São Paulo');
      await page.getByTestId('checkout-zipcode').fill('01000-000');
      await page.getByTestId('checkout-cpfCnpj').fill('249.715.637-92');
      await page.getByTestId('checkout-next').click();
      await expect(page.getByTestId('checkout-stepper')).toHaveAttribute('data-step', '3');
    };
    const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');
    const fillCard = async (number: string) => {
      await page.getByTestId('checkout-method-CREDIT_CARD').check();
      await page.getByTestId('checkout-nameOnCard').fill('ANA LIMA');
      await page.getByTestId('checkout-cardNumber').pressSequentially(number);
      await page.getByTestId('checkout-expiry').pressSequentially(`12${nextYear}`);
      await page.getByTestId('checkout-cvv').fill('123');
      await page.getByTestId('checkout-phone').fill('11987654321');
    };

    // The card step refuses what is wrong before anything is sent.
    await toPaymentStep();
    await page.getByTestId('checkout-method-CREDIT_CARD').check();
    await page.getByTestId('checkout-cardNumber').pressSequentially('4111111111111112');
    await expect(page.getByTestId('checkout-cardNumber')).toHaveValue('4111 1111 1111 1112');
    await page.getByTestId('checkout-expiry').pressSequentially('1320');
    await page.getByTestId('checkout-cvv').fill('12');
    await page.getByTestId('checkout-next').click();
    await expect(page.getByText('Número de cartão inválido')).toBeVisible();
    await expect(page.getByText('Validade inválida: use MM/AA')).toBeVisible();
    await expect(page.getByText('Código de segurança (CVV) inválido')).toBeVisible();
    await expect(page.getByTestId('checkout-stepper')).toHaveAttribute('data-step', '3');
    await shoot(page, 'checkout-card', async () => {
      await page.goto('/financeiro');
      await toPaymentStep();
      await fillCard('4111111111111111');
    });
    for (const language of ['en', 'es'] as const) {
      await page.evaluate((value) => localStorage.setItem('i18nextLng', value), language);
      for (const [size, viewport] of SIZES) {
        await page.setViewportSize(viewport);
        await toPaymentStep();
        await fillCard('4111111111111111');
        await expectNoSideScroll(page, viewport.width, `${language} ${size} fits`);
        await page.screenshot({ path: path.join(screenshotsDir(), `checkout-card-${language}-${size}.png`), animations: 'disabled' });
      }
    }
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'pt'));
    await page.setViewportSize({ width: 1440, height: 900 });

    // A refused card: the reason, nothing paid; then a good card pays the invoice.
    await toPaymentStep();
    await fillCard('4000000000000002');
    await page.getByTestId('checkout-next').click();
    await page.getByTestId('checkout-submit').click();
    await expect(page.getByTestId('checkout-refused')).toContainText('não autorizada');
    await page.getByTestId('checkout-cardNumber').fill('');
    await page.getByTestId('checkout-cardNumber').pressSequentially('4111111111111111');
    await page.getByTestId('checkout-next').click();
    await expect(page.getByTestId('checkout-review-method')).toContainText('•••• 1111');
    await page.getByTestId('checkout-submit').click();
    const done = page.getByTestId('payment-done');
    await expect(done).toBeVisible();
    await page.screenshot({ path: path.join(screenshotsDir(), 'checkout-card-paid-desktop.png'), animations: 'disabled' });
    await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });

    // The next period's invoice, by boleto.
    await api(base, superToken, 'POST', `/companies/${company.id}/invoices`, {});
    await toPaymentStep();
    await page.getByTestId('checkout-method-BOLETO').check();
    await page.getByTestId('checkout-next').click();
    await page.getByTestId('checkout-submit').click();
    await expect(page.getByTestId('boleto-line')).toHaveText(/^4619\d{33}0000009990$/);
    await expect(page.getByTestId('boleto-pdf')).toHaveAttribute('href', /\/fake-asaas\/b\/pay_/);
    for (const [size, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      await expectNoSideScroll(page, viewport.width, `boleto ${size} fits`);
      await page.screenshot({ path: path.join(screenshotsDir(), `checkout-boleto-${size}.png`), animations: 'disabled' });
    }
    await page.getByTestId('boleto-sandbox-pay').click();
    await expect(page.getByTestId('payment-done')).toBeVisible();
    await page.goto('/financeiro');
    await expect(page.getByTestId('invoice-row').first()).toContainText(/Pago/);
    await expect(page.locator('[data-testid^="invoice-pay-"]')).toHaveCount(0);
  } finally {
    await api(base, superToken, 'PUT', '/settings/asaas', { value: '' });
  }
});
});
