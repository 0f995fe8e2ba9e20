import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE } from '../../api/storage-keys';
import { setupI18n } from '../../i18n';
import { buildUser } from '../../test/build-user';
import { fakeApi, json, type FakeRequest } from '../../test/fake-api';
import { renderLogin } from '../../test/render-login';

beforeAll(() => import('./login-rules'), 30_000);
beforeEach(async () => {
  await setupI18n().changeLanguage('en');
});
afterEach(() => {
  localStorage.removeItem(STORAGE.token);
  localStorage.removeItem(STORAGE.language);
});

/** A server whose account has a second factor: the password alone asks for the code; `123456` signs in. */
const secondFactorServer = (request: FakeRequest) => {
  const body = request.body as { code?: string };
  if (body.code === undefined) return { twoFactorRequired: true };
  return body.code === '123456' ? { token: 't', user: buildUser(1) } : json({ error: 'ERR_INVALID_TWO_FACTOR_CODE' }, 400);
};

describe('the login form with a second factor', () => {
  it('asks for the code after the password, says when it is wrong, and signs in with the right one by keyboard', { timeout: 30_000 }, async () => {
    const api = fakeApi({ 'POST /auth/login': secondFactorServer });
    renderLogin();
    await userEvent.type(screen.getByTestId('login-email'), 'ana@acme.com');
    await userEvent.type(screen.getByTestId('login-password'), 'Secret123{Enter}');
    const code = await screen.findByTestId('login-code');
    expect(document.activeElement).toBe(code);
    expect(screen.getByText(i18next.t('login.codeHint'))).toBeTruthy();
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    await userEvent.type(code, '000000{Enter}');
    expect(await screen.findByText(i18next.t('errors.ERR_INVALID_TWO_FACTOR_CODE'))).toBeTruthy();
    await userEvent.clear(code);
    await userEvent.type(code, '123 456{Enter}');
    await waitFor(() => expect(localStorage.getItem(STORAGE.token)).toBe('t'));
    expect(api.calls('POST /auth/login').map((call) => call.body)).toEqual([
      { email: 'ana@acme.com', password: 'Secret123' },
      { email: 'ana@acme.com', password: 'Secret123', code: '000000' },
      { email: 'ana@acme.com', password: 'Secret123', code: '123456' },
    ]);
  });

  it('goes back to the password form', { timeout: 30_000 }, async () => {
    fakeApi({ 'POST /auth/login': secondFactorServer });
    renderLogin();
    await userEvent.type(screen.getByTestId('login-email'), 'ana@acme.com');
    await userEvent.type(screen.getByTestId('login-password'), 'Secret123{Enter}');
    await userEvent.click(await screen.findByTestId('login-back'));
    expect(await screen.findByTestId('login-email')).toBeTruthy();
    expect(screen.queryByTestId('login-code')).toBeNull();
  });
});
