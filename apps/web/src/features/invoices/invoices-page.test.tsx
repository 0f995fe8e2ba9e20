import type { InvoiceView, PaymentMethod, PixCheckoutView } from '@atende/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json, type FakeApi } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import InvoicesPage from './invoices-page';

// jsdom has no canvas: the QR encoder answers a recognisable image.
vi.mock('qrcode', () => ({ toDataURL: (value: string) => Promise.resolve(`data:image/png;base64,${btoa(value.slice(0, 12))}`) }));

const socketServer = standInSocketServer();
const BR_CODE = '00020126580014br.gov.bcb.pix0136fake-psp-key5204000053039865406149.905802BR6304ABCD';

const me = (profile: 'admin' | 'user' = 'admin') => buildUser(1, { name: 'Ana', profile, company: buildUserCompany({ name: 'Acme', dueDate: '2099-01-01T00:00:00.000Z' }) });

const invoice = (id: number, status: InvoiceView['status'], extra: Partial<InvoiceView> = {}): InvoiceView => ({
  id,
  detail: `Plano Pro (${id})`,
  value: 149.9,
  dueDate: '2026-03-10T00:00:00.000Z',
  status,
  paidAt: status === 'paid' ? '2026-02-09T00:00:00.000Z' : null,
  createdAt: '2026-02-01T00:00:00.000Z',
  ...extra,
});

function page(invoices: InvoiceView[], hasMore: boolean): Response {
  return new Response(JSON.stringify(invoices), { status: 200, headers: { 'content-type': 'application/json', 'x-has-more': String(hasMore) } });
}

const charge = (sandbox: boolean, extra: Partial<PixCheckoutView> = {}): PixCheckoutView => ({
  txid: 'tx1',
  invoiceId: 7,
  method: 'PIX',
  qrcode: { qrcode: BR_CODE },
  valor: { original: '149.90' },
  expiresAt: '2026-03-01T15:30:00.000Z',
  boleto: null,
  paid: false,
  provider: sandbox ? 'fake' : 'efi',
  sandbox,
  ...extra,
});

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function server(profile: 'admin' | 'user' = 'admin', sandbox = true, paymentsEnabled = true, paymentMethods: PaymentMethod[] = ['PIX']): FakeApi {
  return fakeApi({
    'GET /auth/me': () => me(profile),
    'GET /subscription': () => ({ companyId: 3, name: 'Acme', email: 'ana@acme.com', plan: { id: 1, name: 'Pro', value: 149.9 }, recurrence: 'MENSAL', dueDate: '2026-03-10T12:00:00.000Z', trialExpiration: null, trialDaysLeft: null, paymentsEnabled, paymentMethods: paymentsEnabled ? paymentMethods : [], mailEnabled: true }),
    'GET /invoices/all': (request) => (request.query.get('pageNumber') === '2' ? page([invoice(5, 'paid')], false) : page([invoice(7, 'open'), invoice(6, 'expired'), invoice(4, 'paid')], true)),
    'POST /subscription': () => charge(sandbox),
    'POST /fake-psp/pay': () => ({ status: 'CONCLUIDA' }),
  });
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
/** Text with Intl's no-break spaces as plain ones. */
const text = (testId: string) => screen.getByTestId(testId).textContent?.replace(/\s/g, ' ');

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(async () => {
  localStorage.setItem('token', 'test-token');
  await setupI18n().changeLanguage('en');
  socketServer.point('/financeiro');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('invoices page (spec part 2 §2.17, §4)', { timeout: 30_000 }, () => {
  it('lists the invoices with their status, Pay on unpaid ones only, and loads the next page while x-has-more says so', async () => {
    const api = server();
    renderPages('/financeiro', { '/financeiro': <InvoicesPage /> });
    const rows = await screen.findAllByTestId('invoice-row');
    expect(rows.map((row) => row.dataset.invoiceId)).toEqual(['7', '6', '4']);
    expect(screen.getByTestId('invoice-status-7').textContent).toBe('Open');
    expect(screen.getByTestId('invoice-status-6').textContent).toBe('Overdue');
    expect(screen.getByTestId('invoice-status-4').textContent).toBe('Paid');
    expect(within(rows[0]!).getByText('R$ 149,90')).toBeTruthy();
    expect(within(rows[0]!).getByText('10/03/2026', { exact: false })).toBeTruthy();
    expect(screen.getByTestId('invoice-pay-7')).toBeTruthy();
    expect(screen.getByTestId('invoice-pay-6')).toBeTruthy();
    expect(screen.queryByTestId('invoice-pay-4')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('invoice-row')).toHaveLength(4));
    expect(api.calls('GET /invoices/all').map((r) => r.query.get('pageNumber'))).toEqual(['1', '2']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('pays: the checkout starts on the plan step, asks the address, reviews, shows the Pix from the server answer; the payment event shows the new due date and goes to / after 4 s', async () => {
    const user = userEvent.setup();
    const api = server('admin', true);
    renderPages('/financeiro', { '/financeiro': <InvoicesPage />, '/': <Where /> });
    await user.click(await screen.findByTestId('invoice-pay-7'));

    // Step 1 (plan) first: the invoice as the server gave it.
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('1');
    expect(within(screen.getByTestId('checkout-step-plan')).getByText('Plano Pro (7)')).toBeTruthy();
    expect(text('checkout-invoice-value')).toBe('R$ 149,90');
    await user.click(screen.getByTestId('checkout-next'));

    // Step 0 (address): the required fields are checked before going on. A Pix-only PSP: no payment step, no CPF.
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('0');
    expect(screen.queryByTestId('checkout-cpfCnpj')).toBeNull();
    await user.click(screen.getByTestId('checkout-next'));
    expect(await screen.findAllByText('Required')).toHaveLength(4);
    await user.type(input('checkout-firstName'), 'Ana');
    await user.type(input('checkout-lastName'), 'Souza');
    await user.type(input('checkout-address2'), 'Rua A, 10');
    await user.type(input('checkout-city'), 'Recife');
    await user.type(input('checkout-state'), 'PE');
    await user.type(input('checkout-zipcode'), '50000-000');
    expect(input('checkout-country').value).toBe('Brasil');
    await user.click(screen.getByTestId('checkout-next'));

    // Step 2 (review), then the charge.
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('2');
    expect(within(screen.getByTestId('checkout-step-review')).getByText('Rua A, 10, Recife, PE, 50000-000, Brasil')).toBeTruthy();
    await user.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByTestId('pix-payment')).toBeTruthy();
    expect(api.calls('POST /subscription').map((r) => r.body)).toEqual([
      { invoiceId: 7, firstName: 'Ana', lastName: 'Souza', address2: 'Rua A, 10', city: 'Recife', state: 'PE', zipcode: '50000-000', country: 'Brasil', method: 'PIX' },
    ]);
    expect(screen.getByTestId('pix-copy-paste').textContent).toBe(BR_CODE);
    expect(text('pix-amount')).toBe('R$ 149,90');
    expect(screen.getByTestId('pix-expires').textContent).toMatch(/^Valid until 01\/03\/2026 \d\d:30$/);
    expect((await screen.findByTestId('pix-qr-image')).getAttribute('data-qr-value')).toBe(BR_CODE);
    expect(screen.getByTestId('pix-sandbox-note')).toBeTruthy();

    await user.click(screen.getByTestId('pix-copy'));
    expect(await navigator.clipboard.readText()).toBe(BR_CODE);
    expect(await screen.findByText('Code copied!')).toBeTruthy();

    await user.click(screen.getByTestId('pix-sandbox-pay'));
    await waitFor(() => expect(api.calls('POST /fake-psp/pay').map((r) => r.body)).toEqual([{ pixCopiaECola: BR_CODE }]));

    await waitFor(() => expect(socketServer.connected()).toBe(true));
    const mePulls = api.calls('GET /auth/me').length;
    const listPulls = api.calls('GET /invoices/all').length;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await waitFor(async () => {
      await socketServer.push('company-3-payment', { action: 'CONCLUIDA', invoiceId: 7, company: { id: 3, dueDate: '2026-04-10T12:00:00.000Z' } });
      expect(screen.getByTestId('payment-done')).toBeTruthy();
    });
    expect(screen.getByTestId('payment-done').textContent).toContain('Payment confirmed! Your subscription is valid until 10/04/2026.');
    // The list and the session user (its company's new due date) are loaded again.
    await waitFor(() => expect(api.calls('GET /auth/me').length).toBeGreaterThan(mePulls));
    await waitFor(() => expect(api.calls('GET /invoices/all').length).toBeGreaterThan(listPulls));
    expect(screen.queryByTestId('where')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it('shows a refused checkout as an error toast and no Pix; no test bank for a real charge', async () => {
    const api = server('admin', false);
    api.on('POST /subscription', () => json({ error: 'ERR_PAYMENTS_UNAVAILABLE' }, 503));
    renderPages('/financeiro', { '/financeiro': <InvoicesPage /> });
    await userEvent.click(await screen.findByTestId('invoice-pay-6'));
    await userEvent.click(screen.getByTestId('checkout-next'));
    for (const [field, value] of [['firstName', 'Ana'], ['address2', 'Rua B'], ['city', 'Natal'], ['zipcode', '59000-000']]) await userEvent.type(input(`checkout-${field!}`), value!);
    await userEvent.click(screen.getByTestId('checkout-next'));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByText('Payments are unavailable right now. Try again later.')).toBeTruthy();
    expect(screen.queryByTestId('pix-payment')).toBeNull();

    api.on('POST /subscription', () => ({ ...charge(false), invoiceId: 6 }));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByTestId('pix-payment')).toBeTruthy();
    expect(screen.queryByTestId('pix-sandbox-pay')).toBeNull();
    expect(screen.queryByTestId('pix-sandbox-note')).toBeNull();
  });

  it('says Pix is not configured and offers no Pay when the server has no PSP', async () => {
    server('admin', true, false);
    renderPages('/financeiro', { '/financeiro': <InvoicesPage /> });
    expect((await screen.findByTestId('invoices-payments-disabled')).textContent).toBe('Pix payments are not configured on this server.');
    expect(await screen.findAllByTestId('invoice-row')).toHaveLength(3);
    expect(screen.queryByTestId('invoice-pay-7')).toBeNull();
  });

  it('tells a user who is not an admin that billing is for admins, and loads nothing', async () => {
    const api = server('user');
    renderPages('/financeiro', { '/financeiro': <InvoicesPage /> });
    expect(await screen.findByTestId('invoices-admin-only')).toBeTruthy();
    expect(api.calls('GET /invoices/all')).toHaveLength(0);
  });
});

/** Asaas's checkout: the payment step with Pix, boleto and card; the card step checked on the page. */
describe('checkout with Asaas (spec part 2 §3, §5: card fields)', { timeout: 30_000 }, () => {
  const ALL: PaymentMethod[] = ['PIX', 'BOLETO', 'CREDIT_CARD'];
  const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');

  /** Opens invoice 7's checkout and fills the address (with the payer's CPF) up to the payment step. */
  async function toPaymentStep(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByTestId('invoice-pay-7'));
    await user.click(screen.getByTestId('checkout-next'));
    for (const [field, value] of [['firstName', 'Ana'], ['address2', 'Rua A, 10'], ['city', 'Recife'], ['zipcode', '50000000']] as const) await user.type(input(`checkout-${field}`), value);
    // The CPF or CNPJ is asked and checked (check digits).
    await user.click(screen.getByTestId('checkout-next'));
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('0');
    expect(await screen.findByText('Required')).toBeTruthy();
    await user.type(input('checkout-cpfCnpj'), '123.456.789-00');
    await user.click(screen.getByTestId('checkout-next'));
    expect(await screen.findByText('Invalid CPF or CNPJ')).toBeTruthy();
    await user.clear(input('checkout-cpfCnpj'));
    await user.type(input('checkout-cpfCnpj'), '249.715.637-92');
    await user.click(screen.getByTestId('checkout-next'));
    await waitFor(() => expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('3'));
  }

  it('offers the provider\'s methods and checks every card field: required, number (Luhn), expiry (MM/YY, not past), CVV, phone', async () => {
    const user = userEvent.setup();
    const api = server('admin', true, true, ALL);
    api.on('POST /subscription', () => charge(true, { method: 'CREDIT_CARD', qrcode: { qrcode: '' }, paid: true, provider: 'asaas', txid: 'pay_1' }));
    renderPages('/financeiro', { '/financeiro': <InvoicesPage /> });
    await toPaymentStep(user);
    const step = screen.getByTestId('checkout-step-payment');
    expect(within(step).getAllByRole('radio').map((radio) => (radio as HTMLInputElement).value)).toEqual(ALL);
    expect(screen.queryByTestId('checkout-card')).toBeNull();
    await user.click(screen.getByTestId('checkout-method-CREDIT_CARD'));

    // Nothing typed: every card field is required.
    await user.click(screen.getByTestId('checkout-next'));
    expect(await within(screen.getByTestId('checkout-card')).findAllByText('Required')).toHaveLength(5);
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('3');

    // Typed as the card shows it: grouped by 4, the expiry as MM/YY.
    await user.type(input('checkout-nameOnCard'), 'ANA LIMA');
    await user.type(input('checkout-cardNumber'), '4111111111111112');
    expect(input('checkout-cardNumber').value).toBe('4111 1111 1111 1112');
    await user.type(input('checkout-expiry'), '1320');
    expect(input('checkout-expiry').value).toBe('13/20');
    await user.type(input('checkout-cvv'), '12');
    await user.type(input('checkout-phone'), '123');
    await user.click(screen.getByTestId('checkout-next'));
    expect(await screen.findByText('Invalid card number')).toBeTruthy();
    expect(screen.getByText('Invalid expiry: use MM/YY')).toBeTruthy();
    expect(screen.getByText('Invalid security code (CVV)')).toBeTruthy();
    expect(screen.getByText('Invalid phone: use (99) 99999-9999')).toBeTruthy();

    // A past month is refused too; American Express needs 4 digits of CVV.
    await user.clear(input('checkout-expiry'));
    await user.type(input('checkout-expiry'), '0120');
    await user.clear(input('checkout-cardNumber'));
    await user.type(input('checkout-cardNumber'), '378282246310005');
    expect(input('checkout-cardNumber').value).toBe('3782 822463 10005');
    await user.clear(input('checkout-cvv'));
    await user.type(input('checkout-cvv'), '123');
    await user.click(screen.getByTestId('checkout-next'));
    expect(await screen.findByText('Invalid expiry: use MM/YY')).toBeTruthy();
    expect(screen.getByText('Invalid security code (CVV)')).toBeTruthy();
    expect(screen.queryByText('Invalid card number')).toBeNull();

    // Valid: the review names the card by its last digits only, and the payment is sent.
    await user.clear(input('checkout-cardNumber'));
    await user.type(input('checkout-cardNumber'), '4111 1111 1111 1111');
    await user.clear(input('checkout-expiry'));
    await user.type(input('checkout-expiry'), `12${nextYear}`);
    await user.clear(input('checkout-phone'));
    await user.type(input('checkout-phone'), '11987654321');
    await user.click(screen.getByTestId('checkout-next'));
    await waitFor(() => expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('2'));
    expect(screen.getByTestId('checkout-review-method').textContent).toBe('Credit card •••• 1111');
    expect(screen.getByTestId('checkout-submit').textContent).toBe('Pay by card');
    await user.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByTestId('payment-approved')).toBeTruthy();
    expect(api.calls('POST /subscription').map((r) => r.body)).toEqual([
      {
        invoiceId: 7,
        firstName: 'Ana',
        lastName: '',
        address2: 'Rua A, 10',
        city: 'Recife',
        state: '',
        zipcode: '50000000',
        country: 'Brasil',
        cpfCnpj: '249.715.637-92',
        method: 'CREDIT_CARD',
        nameOnCard: 'ANA LIMA',
        cardNumber: '4111 1111 1111 1111',
        expiry: `12/${nextYear}`,
        cvv: '123',
        phone: '11987654321',
      },
    ]);
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('card');
  });

  it('a refused card goes back to the card step with the provider\'s reason; a boleto shows its line and pays at the test bank', async () => {
    const user = userEvent.setup();
    const api = server('admin', true, true, ALL);
    api.on('POST /subscription', () => json({ error: 'ERR_PAYMENT_REFUSED', message: 'Transação não autorizada.' }, 422));
    api.on('POST /fake-asaas/pay', () => ({ status: 'RECEIVED' }));
    renderPages('/financeiro', { '/financeiro': <InvoicesPage /> });
    await toPaymentStep(user);
    await user.click(screen.getByTestId('checkout-method-CREDIT_CARD'));
    await user.type(input('checkout-nameOnCard'), 'ANA LIMA');
    await user.type(input('checkout-cardNumber'), '4000000000000002');
    await user.type(input('checkout-expiry'), `12${nextYear}`);
    await user.type(input('checkout-cvv'), '123');
    await user.type(input('checkout-phone'), '11987654321');
    await user.click(screen.getByTestId('checkout-next'));
    await user.click(await screen.findByTestId('checkout-submit'));
    expect((await screen.findByTestId('checkout-refused')).textContent).toBe('The card was refused: Transação não autorizada.');
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('3');

    const line = '46191234567890123456789012345678901230000014990';
    api.on('POST /subscription', () => charge(true, { method: 'BOLETO', qrcode: { qrcode: '' }, boleto: { line, url: 'http://127.0.0.1/fake-asaas/b/pay_2' }, provider: 'asaas', txid: 'pay_2' }));
    await user.click(screen.getByTestId('checkout-method-BOLETO'));
    expect(screen.queryByTestId('checkout-card')).toBeNull();
    await user.click(screen.getByTestId('checkout-next'));
    expect(screen.getByTestId('checkout-review-method').textContent).toBe('Boleto');
    await user.click(screen.getByTestId('checkout-submit'));
    expect((await screen.findByTestId('boleto-line')).textContent).toBe(line);
    expect(api.calls('POST /subscription').at(-1)?.body).toMatchObject({ method: 'BOLETO', cpfCnpj: '249.715.637-92' });
    // No card field goes with a boleto.
    expect(Object.keys(api.calls('POST /subscription').at(-1)?.body as object)).not.toContain('cardNumber');
    expect(screen.getByTestId('boleto-pdf').getAttribute('href')).toBe('http://127.0.0.1/fake-asaas/b/pay_2');
    await user.click(screen.getByTestId('boleto-sandbox-pay'));
    await waitFor(() => expect(api.calls('POST /fake-asaas/pay').map((r) => r.body)).toEqual([{ id: 'pay_2' }]));
  });

  it('checks the postal code: a CEP in Brazil', async () => {
    const user = userEvent.setup();
    server('admin', true, true, ALL);
    renderPages('/financeiro', { '/financeiro': <InvoicesPage /> });
    await user.click(await screen.findByTestId('invoice-pay-7'));
    await user.click(screen.getByTestId('checkout-next'));
    await user.type(input('checkout-zipcode'), '5000');
    await user.click(screen.getByTestId('checkout-next'));
    expect(await screen.findByText('Invalid postal code')).toBeTruthy();
  });
});
