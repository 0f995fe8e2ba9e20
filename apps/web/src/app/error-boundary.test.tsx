import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { lazy, Suspense } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../i18n';
import { ErrorBoundary, isChunkLoadError, PageErrorBoundary } from './error-boundary';

beforeAll(async () => {
  await setupI18n().changeLanguage('en');
});

// React reports each error a boundary catches on the console; these are the test's own.
const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
afterEach(() => consoleError.mockClear());

/** A page whose chunk did not download, as React.lazy meets it. */
const MissingPage = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/assets/helps-page-abc.js')));

function Broken(): never {
  throw new Error('a bug');
}

describe('isChunkLoadError', () => {
  it('knows the download failures of Chromium, Firefox, Safari and Vite, and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://a/assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://a/assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for https://a/assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});

describe('the error boundary', () => {
  it('replaces a page whose code did not download with why and a Reload button, as a heading of its own', async () => {
    render(
      <ErrorBoundary>
        <Suspense fallback={null}>
          <MissingPage />
        </Suspense>
      </ErrorBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This page could not be loaded');
    expect(alert.textContent).toContain('A new version of Atende may have been published');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('says something went wrong for any other error, in the reader language', async () => {
    await i18next.changeLanguage('pt');
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Algo deu errado nesta página');
    expect(screen.getByRole('button', { name: 'Recarregar' })).toBeTruthy();
    await i18next.changeLanguage('en');
  });

  it('inside the frame, keeps what is around it and tries again on another route', async () => {
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <nav>
          <Link to="/fine">Fine page</Link>
        </nav>
        <PageErrorBoundary>
          <Routes>
            <Route path="/broken" element={<Broken />} />
            <Route path="/fine" element={<h1>All good</h1>} />
          </Routes>
        </PageErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong on this page');
    await userEvent.click(screen.getByRole('link', { name: 'Fine page' }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('All good');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
