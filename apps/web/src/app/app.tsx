import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { SessionProvider } from '../api/session';
import { ToastHost } from '../components/toast';
import { SocketProvider } from '../realtime/socket';
import { useInstallLinks } from './install-links';
import { ErrorBoundary } from './error-boundary';
import { AppRoutes } from './routes';
import { AppThemeProvider } from './theme';

function Providers() {
  const navigate = useNavigate();
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } } }),
  );
  // react-router gives `navigate` a new identity on every navigation; the session
  // (and the socket built on it) must not be rebuilt each time the page changes.
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  const onSessionEnd = useCallback(() => {
    queryClient.clear();
    void navigateRef.current('/login', { replace: true });
  }, [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider onSessionEnd={onSessionEnd}>
        <SocketProvider>
          <AppRoutes />
        </SocketProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}

export function App() {
  useInstallLinks();
  return (
    <AppThemeProvider>
      <ErrorBoundary>
        <BrowserRouter>
          <Providers />
        </BrowserRouter>
      </ErrorBoundary>
      <ToastHost />
    </AppThemeProvider>
  );
}
