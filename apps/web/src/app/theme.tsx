import { createTheme, CssBaseline, ThemeProvider, type Theme } from '@mui/material';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE } from '../api/storage-keys';

type Mode = 'light' | 'dark';
const HEADINGS = { h1: 'h1', h2: 'h2', h3: 'h3', h4: 'h4', h5: 'h5', h6: 'h6' } as const;
const ThemeModeContext = createContext<{ mode: Mode; toggle(): void }>({ mode: 'light', toggle: () => undefined });

/** Remembered choice, else the system's preference (spec part 2 §2.21). */
function initialMode(): Mode {
  const stored = localStorage.getItem(STORAGE.theme);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const themes: Partial<Record<Mode, Theme>> = {};

/**
 * The theme of a mode, made once: `createTheme` takes several milliseconds (four times that on a
 * phone), so the first one is made in a task of its own while the first screen downloads
 * (`prepareTheme`, main.tsx) rather than inside the first render.
 */
function themeOf(mode: Mode): Theme {
  themes[mode] ??= createTheme({
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#64b5f6' : '#1565c0' },
      secondary: { main: '#2e7d32' },
      // MUI's dark red (#f44336) reads at 4.16:1 on raised dark surfaces; this one keeps 4.5:1 on them (WCAG AA).
      ...(mode === 'dark' ? { error: { main: '#f6685e' } } : {}),
    },
    shape: { borderRadius: 8 },
    components: {
      // Subtitles are styled text, not headings: MUI would make them <h6>, which breaks the pages' heading outline.
      // A subtitle that is a heading says so with `component`.
      MuiTypography: { defaultProps: { variantMapping: { ...HEADINGS, subtitle1: 'p', subtitle2: 'p', body1: 'p', body2: 'p', inherit: 'p' } } },
      // The helper text of a disabled field is still read: the theme's disabled grey (2.7:1) is too faint for it.
      MuiFormHelperText: { styleOverrides: { root: ({ theme: current }) => ({ '&.Mui-disabled': { color: current.palette.text.secondary } }) } },
    },
  });
  return themes[mode];
}

/** Makes the stored (or the system's) mode's theme ahead of the first render. */
export function prepareTheme(): void {
  themeOf(initialMode());
}

/** The theme with what depends on the language: a spinner is a progress bar to a screen reader and needs a name (a page's own label wins). */
function withLoadingLabel(theme: Theme, loadingLabel: string): Theme {
  return { ...theme, components: { ...theme.components, MuiCircularProgress: { defaultProps: { 'aria-label': loadingLabel } } } };
}

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<Mode>(initialMode);
  const { t } = useTranslation();
  const loadingLabel = t('common.loading');
  const theme = useMemo(() => withLoadingLabel(themeOf(mode), loadingLabel), [mode, loadingLabel]);
  const value = useMemo(
    () => ({
      mode,
      toggle: () =>
        setMode((current) => {
          const next = current === 'dark' ? 'light' : 'dark';
          localStorage.setItem(STORAGE.theme, next);
          return next;
        }),
    }),
    [mode],
  );
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}

export function useThemeMode() {
  return useContext(ThemeModeContext);
}
