import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE } from '../../api/storage-keys';
import { initialLanguage, setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { renderLogin } from '../../test/render-login';

/** DECISIONS §1: the language before and after signing in. */
beforeEach(async () => {
  await setupI18n().changeLanguage('pt');
});
afterEach(() => {
  localStorage.removeItem(STORAGE.language);
});


async function signIn() {
  await userEvent.type(screen.getByTestId('login-email'), 'ana@acme.com');
  await userEvent.type(screen.getByTestId('login-password'), 'Secret123');
  await userEvent.click(screen.getByTestId('login-submit'));
}

describe('the language before signing in', () => {
  it('is the stored choice, else the browser’s when it is pt, en or es, else Portuguese', () => {
    const browser = vi.spyOn(navigator, 'language', 'get');
    browser.mockReturnValue('fr-FR');
    expect(initialLanguage()).toBe('pt');
    browser.mockReturnValue('es-AR');
    expect(initialLanguage()).toBe('es');
    localStorage.setItem(STORAGE.language, 'en');
    expect(initialLanguage()).toBe('en');
    browser.mockRestore();
  });
});

describe('signing in', () => {
  it('switches to the user’s own language, stored on the server', async () => {
    fakeApi({ 'POST /auth/login': () => ({ token: 't', user: buildUser(1, { language: 'es', company: buildUserCompany({ settings: [{ key: 'language', value: 'en' }] }) }) }) });
    renderLogin();
    await signIn();
    await waitFor(() => expect(i18next.language).toBe('es'));
    expect(localStorage.getItem(STORAGE.language)).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('without one, keeps the language chosen in this browser', async () => {
    localStorage.setItem(STORAGE.language, 'es');
    await i18next.changeLanguage('es');
    fakeApi({ 'POST /auth/login': () => ({ token: 't', user: buildUser(1, { language: null, company: buildUserCompany({ settings: [{ key: 'language', value: 'en' }] }) }) }) });
    renderLogin();
    await signIn();
    await waitFor(() => expect(localStorage.getItem(STORAGE.token)).toBe('t'));
    expect(i18next.language).toBe('es');
  });

  it('without one, and none chosen in this browser, to the company’s language', async () => {
    fakeApi({ 'POST /auth/login': () => ({ token: 't', user: buildUser(1, { language: null, company: buildUserCompany({ settings: [{ key: 'language', value: 'en' }] }) }) }) });
    renderLogin();
    await signIn();
    await waitFor(() => expect(i18next.language).toBe('en'));
  });
});
