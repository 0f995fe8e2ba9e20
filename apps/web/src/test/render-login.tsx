import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { ToastHost } from '../components/toast';
import { MemoryRouter } from 'react-router';
import { SessionProvider } from '../api/session';
import LoginPage from '../features/login/login-page';

/** The login page with what it uses around it (query client, toasts, session, router), signed out at /login. */
export function renderLogin() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <MemoryRouter initialEntries={['/login']}>
            <LoginPage />
          </MemoryRouter>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}
