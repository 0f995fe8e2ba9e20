import { Box, Button, Typography } from '@mui/material';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

/**
 * A part of the app whose code did not download: the tab was opened before a deploy replaced the
 * build's files (their names change with their content), or the network dropped. Chromium says
 * "Failed to fetch dynamically imported module", Firefox "error loading dynamically imported
 * module", Safari "Importing a module script failed", Vite's preload "Unable to preload CSS".
 */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|importing a module script failed|unable to preload css/i.test(error.message);
}

/** What replaces a page that failed: why, in the reader's language, and a way out (the page is reloaded). */
function PageError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  return (
    <Box role="alert" data-testid="page-error" sx={{ maxWidth: 560, mx: 'auto', my: 4, px: 2, display: 'grid', gap: 2, justifyItems: 'start' }}>
      <Typography component="h1" variant="h6">
        {t(chunk ? 'app.pageError.chunkTitle' : 'app.pageError.crashTitle')}
      </Typography>
      <Typography>{t(chunk ? 'app.pageError.chunkText' : 'app.pageError.crashText')}</Typography>
      <Button variant="contained" onClick={() => window.location.reload()}>
        {t('app.pageError.reload')}
      </Button>
    </Box>
  );
}

interface ErrorBoundaryProps {
  children: ReactNode;
  /** When it changes (the route), the message goes and the new route renders: the menu leads out of it. */
  resetKey?: string;
}

interface ErrorBoundaryState {
  error: unknown;
  resetKey: string | undefined;
}

/**
 * A page that throws while rendering (its code did not download, or a bug) is replaced by a
 * message with a Reload button instead of React unmounting the whole app (a blank page). One
 * sits around the pages inside the frame (the top bar and the menu stay), one around the app.
 * The error is logged by the root's `onCaughtError` (main.tsx).
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error ?? new Error('render failed') };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    return this.state.error ? <PageError error={this.state.error} /> : this.props.children;
  }
}

/** The boundary around the pages of the frame, cleared by another route (a page that failed to download fails again until a reload). */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary resetKey={pathname}>{children}</ErrorBoundary>;
}
