import type { SubscriptionView } from '@atende/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import SubscriptionPage from './subscription-page';

const me = (profile: 'admin' | 'user') => buildUser(1, { name: 'Ana', profile, company: buildUserCompany({ name: 'Acme', dueDate: '2026-03-04T00:00:00.000Z' }) });
const subscription = (extra: Partial<SubscriptionView> = {}): SubscriptionView => ({
  companyId: 3,
  name: 'Acme',
  email: 'billing@acme.com',
  plan: { id: 2, name: 'Pro', value: 99 },
  recurrence: 'MENSAL',
  dueDate: '2026-03-04T12:00:00.000Z',
  trialExpiration: '2026-03-04T12:00:00.000Z',
  trialDaysLeft: 3,
  paymentsEnabled: true,
  paymentMethods: ['PIX'],
  mailEnabled: true,
  ...extra,
});

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value.replace(/\s/g, ' ');

beforeEach(async () => {
  localStorage.setItem('token', 'test-token');
  localStorage.setItem('i18nextLng', 'en');
  await setupI18n().changeLanguage('en');
});

describe('subscription page (spec part 2 §2.20)', { timeout: 30_000 }, () => {
  it('shows the trial days left, billing e-mail, plan and due date read-only, and Subscribe opens the invoices', async () => {
    fakeApi({ 'GET /auth/me': () => me('admin'), 'GET /subscription': () => subscription() });
    renderPages('/subscription', { '/subscription': <SubscriptionPage />, '/financeiro': <Where /> });
    await screen.findByTestId('trial-days');
    expect(value('trial-days')).toBe('3 trial days left');
    expect((screen.getByTestId('trial-days') as HTMLInputElement).readOnly).toBe(true);
    expect(value('subscription-email')).toBe('billing@acme.com');
    expect(value('subscription-plan')).toBe('Pro · R$ 99,00/month');
    expect(value('subscription-due-date')).toBe('04/03/2026');
    await userEvent.click(screen.getByTestId('subscription-subscribe'));
    expect((await screen.findByTestId('where')).textContent).toBe('/financeiro');
  });

  it('says when the trial ended or there is none (Portuguese, one day in the singular)', async () => {
    await setupI18n().changeLanguage('pt');
    const api = fakeApi({ 'GET /auth/me': () => me('admin'), 'GET /subscription': () => subscription({ trialDaysLeft: 1 }) });
    const view = renderPages('/subscription', { '/subscription': <SubscriptionPage /> });
    await screen.findByTestId('trial-days');
    expect(value('trial-days')).toBe('Resta 1 dia de teste');
    expect(screen.getByTestId('subscription-subscribe').textContent).toBe('Assinar');
    view.unmount();
    api.on('GET /subscription', () => subscription({ trialDaysLeft: 0 }));
    renderPages('/subscription', { '/subscription': <SubscriptionPage /> });
    await screen.findByTestId('trial-days');
    expect(value('trial-days')).toBe('O período de teste terminou');
  });

  it('tells a user who is not an admin that billing is for admins', async () => {
    const api = fakeApi({ 'GET /auth/me': () => me('user') });
    renderPages('/subscription', { '/subscription': <SubscriptionPage /> });
    expect(await screen.findByTestId('subscription-admin-only')).toBeTruthy();
    expect(api.calls('GET /subscription')).toHaveLength(0);
  });
});
