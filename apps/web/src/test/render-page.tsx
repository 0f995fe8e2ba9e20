import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { ToastHost } from '../components/toast';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { SessionProvider } from '../api/session';
import { SocketProvider } from '../realtime/socket';

/**
 * Renders pages as the app does (query client, toasts, session, socket, router)
 * at `path`; `routes` maps route patterns to the pages under test.
 */
export function renderPages(path: string, routes: Record<string, ReactElement>) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <SocketProvider>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                {Object.entries(routes).map(([pattern, element]) => (
                  <Route key={pattern} path={pattern} element={element} />
                ))}
              </Routes>
            </MemoryRouter>
          </SocketProvider>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}
