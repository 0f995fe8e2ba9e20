import { CircularProgress, useTheme } from '@mui/material';
import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { STORAGE } from '../api/storage-keys';
import { setupI18n } from '../i18n';
import { AppThemeProvider, prepareTheme, useThemeMode } from './theme';

beforeAll(() => {
  setupI18n();
});

function Probe() {
  const theme = useTheme();
  const { toggle } = useThemeMode();
  return (
    <>
      <CircularProgress />
      <button type="button" onClick={toggle}>
        {theme.palette.mode} {theme.palette.primary.main} {theme.shape.borderRadius}
      </button>
    </>
  );
}

describe('the app theme', () => {
  it('names spinners in the language in use, made ahead of the first render or not', async () => {
    localStorage.setItem(STORAGE.theme, 'light');
    prepareTheme();
    await act(() => i18next.changeLanguage('pt'));
    render(
      <AppThemeProvider>
        <Probe />
      </AppThemeProvider>,
    );
    expect(screen.getByRole('progressbar', { name: 'Carregando...' })).toBeTruthy();
    expect(screen.getByRole('button').textContent).toBe('light #1565c0 8');
    await act(() => i18next.changeLanguage('en'));
    expect(screen.getByRole('progressbar', { name: 'Loading...' })).toBeTruthy();
  });

  it('switches to the dark palette and remembers it, keeping the label', async () => {
    localStorage.setItem(STORAGE.theme, 'light');
    await act(() => i18next.changeLanguage('es'));
    render(
      <AppThemeProvider>
        <Probe />
      </AppThemeProvider>,
    );
    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('button').textContent).toBe('dark #64b5f6 8');
    expect(localStorage.getItem(STORAGE.theme)).toBe('dark');
    expect(screen.getByRole('progressbar', { name: 'Cargando...' })).toBeTruthy();
  });
});
