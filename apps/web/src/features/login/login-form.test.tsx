import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE } from '../../api/storage-keys';
import { setupI18n } from '../../i18n';
import { buildUser } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { renderLogin } from '../../test/render-login';

// The rules the page loads on first use: transformed once here, not inside a test's time limit.
beforeAll(() => import('./login-rules'), 30_000);
beforeEach(async () => {
  await setupI18n().changeLanguage('pt');
});
afterEach(() => {
  localStorage.removeItem(STORAGE.token);
  localStorage.removeItem(STORAGE.language);
});


/** The form checks with the shared login rules (loaded on first use), so its messages are the server's. */
describe('the login form', () => {
  it('says what is wrong with each field and sends nothing', async () => {
    const api = fakeApi();
    renderLogin();
    await userEvent.type(screen.getByTestId('login-email'), 'not-an-email');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText(i18next.t('validation.invalidEmail'))).toBeTruthy();
    expect(screen.getByText(i18next.t('validation.required'))).toBeTruthy();
    expect(screen.getByTestId('login-email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('login-password').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('POST /auth/login')).toHaveLength(0);

    // Typing in a field clears its message.
    await userEvent.type(screen.getByTestId('login-password'), 'x');
    expect(screen.queryByText(i18next.t('validation.required'))).toBeNull();
    expect(screen.getByText(i18next.t('validation.invalidEmail'))).toBeTruthy();
  });

  it('sends the trimmed, lower-case e-mail the rules make of it', async () => {
    const api = fakeApi({ 'POST /auth/login': () => ({ token: 't', user: buildUser(1) }) });
    renderLogin();
    await userEvent.type(screen.getByTestId('login-email'), '  Ana@Acme.COM ');
    await userEvent.type(screen.getByTestId('login-password'), 'Secret123');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(api.calls('POST /auth/login')).toHaveLength(1));
    expect(api.calls('POST /auth/login')[0]?.body).toEqual({ email: 'ana@acme.com', password: 'Secret123' });
  });

  it('offers the three languages in a native list and switches to the one picked', async () => {
    fakeApi();
    renderLogin();
    const picker = screen.getByTestId('login-language');
    expect(screen.getByLabelText(i18next.t('login.language'))).toBe(picker);
    expect([...picker.querySelectorAll('option')].map((option) => option.value)).toEqual(['pt', 'en', 'es']);
    await userEvent.selectOptions(picker, 'es');
    await waitFor(() => expect(i18next.language).toBe('es'));
    expect(localStorage.getItem(STORAGE.language)).toBe('es');
  });
});
