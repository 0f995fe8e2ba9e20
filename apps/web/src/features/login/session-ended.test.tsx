import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { rememberSessionEnd, sessionEndReason } from '../../api/storage-keys';
import { setupI18n } from '../../i18n';
import { buildUser } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { renderLogin } from '../../test/render-login';

beforeAll(async () => {
  await setupI18n().changeLanguage('pt');
});


describe('a session someone else ended', () => {
  it('the login page it lands on says why until it is dismissed, also after a reload', async () => {
    fakeApi({});
    rememberSessionEnd('usedElsewhere');
    renderLogin();
    expect((await screen.findByTestId('login-session-ended')).textContent).toContain('Sua conta foi acessada em outro computador.');
    await userEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByTestId('login-session-ended')).toBeNull());
    expect(sessionEndReason()).toBeNull();
  });

  it('signing in again forgets it', async () => {
    fakeApi({ 'POST /auth/login': () => ({ token: 't', user: buildUser(1) }) });
    rememberSessionEnd('ended');
    renderLogin();
    expect((await screen.findByTestId('login-session-ended')).textContent).toContain('Sua sessão foi encerrada');
    await userEvent.type(screen.getByTestId('login-email'), 'ana@acme.com');
    await userEvent.type(screen.getByTestId('login-password'), 'Secret123');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(sessionEndReason()).toBeNull());
  });
});
