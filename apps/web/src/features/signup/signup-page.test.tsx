import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { fakeApi, json } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { shownToasts } from '../../test/toasts';
import SignupPage from './signup-page';

const plans = [
  { id: 1, name: 'Básico', users: 3, connections: 1, queues: 2, value: 49.9 },
  { id: 2, name: 'Pro', users: 10, connections: 3, queues: 5, value: 99 },
];

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function server(signupEnabled = true) {
  return fakeApi({
    'GET /auth/options': () => ({ signupEnabled, mailEnabled: true }),
    'GET /plans/list': () => plans,
    'POST /companies/cadastro': () => json({ message: 'received' }, 201),
  });
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

beforeEach(async () => {
  localStorage.setItem('i18nextLng', 'en');
  await setupI18n().changeLanguage('en');
});

describe('sign-up page (spec part 2 §2.18, §5)', { timeout: 30_000 }, () => {
  it('says what is wrong, the password rule and the phone included, and sends nothing', async () => {
    const api = server();
    renderPages('/signup?companyId=7', { '/signup': <SignupPage /> });
    await userEvent.click(await screen.findByTestId('signup-submit'));
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);

    await userEvent.type(input('signup-name'), 'Acme');
    await userEvent.type(input('signup-email'), 'not-an-email');
    await userEvent.type(input('signup-phone'), '1191');
    await userEvent.type(input('signup-password'), 'abcdefgh');
    await userEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(screen.getByText('Invalid phone: use (99) 99999-9999')).toBeTruthy();
    expect(screen.getByText('The password needs 8 to 50 characters, with at least one digit, one lowercase and one uppercase letter')).toBeTruthy();
    expect(api.calls('POST /companies/cadastro')).toHaveLength(0);
  });

  it('masks the phone, shows the plans with price and limits, sends digits and the UI language, then goes to /login', async () => {
    const api = server();
    renderPages('/signup', { '/signup': <SignupPage />, '/login': <Where /> });
    await userEvent.type(await screen.findByTestId('signup-name'), 'Acme Ltda');
    await userEvent.type(input('signup-email'), 'Owner@Acme.com');
    await userEvent.type(input('signup-phone'), '11912345678999');
    expect(input('signup-phone').value).toBe('(11) 91234-5678');
    await userEvent.type(input('signup-password'), 'Secret123');
    // Show/hide.
    expect(input('signup-password').type).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input('signup-password').type).toBe('text');

    await waitFor(() => expect(within(screen.getByTestId('signup-plan')).getByRole('combobox').getAttribute('aria-disabled')).not.toBe('true'));
    await userEvent.click(within(screen.getByTestId('signup-plan')).getByRole('combobox'));
    const option = await screen.findByTestId('signup-plan-2');
    expect(option.textContent).toContain('Pro: R$');
    expect(option.textContent).toContain('99,00/month');
    expect(option.textContent).toContain('10 users · 3 connections · 5 queues');
    await userEvent.click(option);

    await userEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));
    expect(api.calls('POST /companies/cadastro').map((r) => r.body)).toEqual([
      { name: 'Acme Ltda', email: 'owner@acme.com', phone: '11912345678', password: 'Secret123', planId: 2, language: 'en' },
    ]);
    expect(shownToasts()).toEqual([{ text: expect.stringContaining('Sign-up received!') as string, variant: 'success' }]);
  });

  it('shows a server refusal as a toast and stays on the form', async () => {
    const api = server();
    api.on('POST /companies/cadastro', () => json({ error: 'ERR_TOO_MANY_REQUESTS' }, 429));
    renderPages('/signup', { '/signup': <SignupPage /> });
    await userEvent.type(await screen.findByTestId('signup-name'), 'Acme');
    await userEvent.type(input('signup-email'), 'a@acme.com');
    await userEvent.type(input('signup-phone'), '1132345678');
    await userEvent.type(input('signup-password'), 'Secret123');
    await waitFor(() => expect(within(screen.getByTestId('signup-plan')).getByRole('combobox').getAttribute('aria-disabled')).not.toBe('true'));
    await userEvent.click(within(screen.getByTestId('signup-plan')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('signup-plan-1'));
    await userEvent.click(screen.getByTestId('signup-submit'));
    await screen.findByText('Too many attempts. Wait a few minutes and try again.');
    expect(api.calls('POST /companies/cadastro')[0]?.body).toMatchObject({ phone: '1132345678', planId: 1 });
    expect((screen.getByTestId('signup-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('says sign-up is turned off instead of offering the form (Portuguese)', async () => {
    await setupI18n().changeLanguage('pt');
    const api = server(false);
    renderPages('/signup', { '/signup': <SignupPage /> });
    expect((await screen.findByTestId('signup-disabled')).textContent).toBe('O cadastro de novas empresas está desativado. Fale com o responsável pela plataforma.');
    expect(screen.queryByTestId('signup-form')).toBeNull();
    expect(screen.getByRole('link', { name: 'Já tem uma conta? Entre!' }).getAttribute('href')).toBe('/login');
    expect(api.calls('GET /plans/list')).toHaveLength(0);
  });
});
