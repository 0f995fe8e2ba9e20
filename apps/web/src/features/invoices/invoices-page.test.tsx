import type { InvoiceView, PixCheckoutView } from '@atende/shared';
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

const charge = (sandbox: boolean): PixCheckoutView => ({
  txid: 'tx1',
  invoiceId: 7,
  qrcode: { qrcode: BR_CODE },
  valor: { original: '149.90' },
  expiresAt: '2026-03-01T15:30:00.000Z',
  sandbox,
});

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function server(profile: 'admin' | 'user' = 'admin', sandbox = true, paymentsEnabled = true): FakeApi {
  return fakeApi({
    'GET /auth/me': () => me(profile),
    'GET /subscription': () => ({ companyId: 3, name: 'Acme', email: 'ana@acme.com', plan: { id: 1, name: 'Pro', value: 149.9 }, recurrence: 'MENSAL', dueDate: '2026-03-10T12:00:00.000Z', trialExpiration: null, trialDaysLeft: null, paymentsEnabled, mailEnabled: true }),
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

    // Step 0 (address): the required fields are checked before going on.
    expect(screen.getByTestId('checkout-stepper').dataset.step).toBe('0');
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
      { invoiceId: 7, firstName: 'Ana', lastName: 'Souza', address2: 'Rua A, 10', city: 'Recife', state: 'PE', zipcode: '50000-000', country: 'Brasil' },
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
