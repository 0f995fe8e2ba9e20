import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { fakeApi, json } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { shownToasts } from '../../test/toasts';
import PasswordResetPage from './password-reset-page';

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function server(mailEnabled = true) {
  return fakeApi({
    'GET /auth/options': () => ({ signupEnabled: true, mailEnabled }),
    'POST /forgetpassword/ana%40acme.com': () => ({ status: 200, message: 'sent' }),
    'POST /auth/reset-password': () => ({ message: 'Password updated' }),
  });
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

async function sendEmail() {
  await userEvent.type(await screen.findByTestId('reset-email'), 'ana@acme.com');
  await userEvent.click(screen.getByTestId('reset-send'));
  await screen.findByTestId('reset-code');
}

beforeEach(async () => {
  localStorage.setItem('i18nextLng', 'en');
  await setupI18n().changeLanguage('en');
});

describe('password reset page (spec part 2 §2.19, §4, §5)', { timeout: 30_000 }, () => {
  it('asks for the e-mail, then the code and the new password, sent in the body of /auth/reset-password, then goes to /login', async () => {
    const api = server();
    renderPages('/forgetpsw', { '/forgetpsw': <PasswordResetPage />, '/login': <Where /> });
    await sendEmail();
    expect(api.calls('POST /forgetpassword/ana%40acme.com')[0]?.query.get('language')).toBe('en');
    expect(screen.getByText('If the e-mail has an account, we sent a code to it.')).toBeTruthy();
    expect(input('reset-code').getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByRole('link', { name: "Don't have an account? Sign up!" }).getAttribute('href')).toBe('/signup');

    await userEvent.type(input('reset-code'), '123456');
    await userEvent.type(input('reset-password'), 'NewSecret1');
    await userEvent.type(input('reset-confirm'), 'NewSecret1');
    // Each password can be shown.
    expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(2);
    await userEvent.click(screen.getByTestId('reset-submit'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));

    const [reset] = api.calls('POST /auth/reset-password');
    expect(reset?.body).toEqual({ email: 'ana@acme.com', token: '123456', newPassword: 'NewSecret1' });
    expect(reset?.query.toString()).toBe('');
    // Nothing secret went into any address.
    expect(api.requests.some((r) => r.path.includes('123456') || r.path.includes('NewSecret1') || r.path.startsWith('/resetpasswords'))).toBe(false);
    expect(shownToasts().map((t) => t.text)).toContain('Password reset! Sign in with the new password.');
  });

  it('sends nothing while the confirmation differs, the code is not 6 digits or the password breaks the rule', async () => {
    const api = server();
    renderPages('/forgetpsw', { '/forgetpsw': <PasswordResetPage /> });
    await sendEmail();
    await userEvent.type(input('reset-code'), '12a');
    await userEvent.type(input('reset-password'), 'weakpass');
    await userEvent.type(input('reset-confirm'), 'different');
    await userEvent.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(screen.getByText('The code has 6 digits')).toBeTruthy();
    expect(screen.getByText('The password needs 8 to 50 characters, with at least one digit, one lowercase and one uppercase letter')).toBeTruthy();

    await userEvent.clear(input('reset-code'));
    await userEvent.type(input('reset-code'), '654321');
    await userEvent.clear(input('reset-password'));
    await userEvent.type(input('reset-password'), 'Strong123');
    await userEvent.clear(input('reset-confirm'));
    await userEvent.type(input('reset-confirm'), 'Strong124');
    await userEvent.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(api.calls('POST /auth/reset-password')).toHaveLength(0);
  });

  it('shows a wrong code as an error and stays on the step', async () => {
    const api = server();
    api.on('POST /auth/reset-password', () => json({ error: 'ERR_INVALID_RESET_CODE' }, 400));
    renderPages('/forgetpsw', { '/forgetpsw': <PasswordResetPage /> });
    await sendEmail();
    await userEvent.type(input('reset-code'), '000000');
    await userEvent.type(input('reset-password'), 'Strong123');
    await userEvent.type(input('reset-confirm'), 'Strong123');
    await userEvent.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByText('Invalid or expired code. Ask for a new code.')).toBeTruthy();
    expect(screen.getByTestId('reset-code')).toBeTruthy();
  });

  it('says when the e-mail is not found, if the server reveals it', async () => {
    const api = server();
    api.on('POST /forgetpassword/ana%40acme.com', () => ({ status: 404 }));
    renderPages('/forgetpsw', { '/forgetpsw': <PasswordResetPage /> });
    await userEvent.type(await screen.findByTestId('reset-email'), 'ana@acme.com');
    await userEvent.click(screen.getByTestId('reset-send'));
    expect(await screen.findByText('E-mail not found.')).toBeTruthy();
    expect(screen.queryByTestId('reset-code')).toBeNull();
  });

  it('without e-mail on the server, says to ask an administrator instead of showing the form (Portuguese)', async () => {
    await setupI18n().changeLanguage('pt');
    server(false);
    renderPages('/forgetpsw', { '/forgetpsw': <PasswordResetPage /> });
    expect((await screen.findByTestId('reset-mail-disabled')).textContent).toContain('Peça a um administrador da sua empresa para definir uma nova senha');
    expect(screen.queryByTestId('reset-email')).toBeNull();
  });
});
