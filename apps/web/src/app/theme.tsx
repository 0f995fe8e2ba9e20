import { createTheme, CssBaseline, ThemeProvider } from '@mui/material';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { STORAGE } from '../api/storage-keys';

type Mode = 'light' | 'dark';
const ThemeModeContext = createContext<{ mode: Mode; toggle(): void }>({ mode: 'light', toggle: () => undefined });

/** Remembered choice, else the system's preference (spec part 2 §2.21). */
function initialMode(): Mode {
  const stored = localStorage.getItem(STORAGE.theme);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<Mode>(initialMode);
  const theme = useMemo(
    () =>
      createTheme({
        palette: { mode, primary: { main: mode === 'dark' ? '#64b5f6' : '#1565c0' }, secondary: { main: '#2e7d32' } },
        shape: { borderRadius: 8 },
      }),
    [mode],
  );
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
