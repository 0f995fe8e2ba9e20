import type { PresentedUser } from '@atende/shared';
import Brightness4 from '@mui/icons-material/Brightness4';
import Brightness7 from '@mui/icons-material/Brightness7';
import MenuIcon from '@mui/icons-material/Menu';
import Translate from '@mui/icons-material/Translate';
import { AppBar, IconButton, Toolbar, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MountWhenOpened } from '../../components/mount-when-opened';
import { useThemeMode } from '../theme';

/** The language picker (top-bar-menus.tsx), loaded when first opened. */
export const LanguageMenu = lazy(() => import('./top-bar-menus').then((m) => ({ default: m.LanguageMenu })));

/**
 * What every top bar has (spec part 1 §2): the menu toggle, the greeting, the
 * language picker and the theme toggle; `children` are the bar's other controls
 * (the full bar's counters and profile menu, or an overdue session's logout).
 * With `languageInMenuOnPhone` the language button gives its place on a phone to
 * the bar's other controls (the bar offers the picker from its profile menu).
 */
export function TopBarFrame({
  user,
  greetingSuffix = '',
  onToggleMenu,
  languageInMenuOnPhone = false,
  children,
}: {
  user: PresentedUser;
  greetingSuffix?: string;
  onToggleMenu(): void;
  languageInMenuOnPhone?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { mode, toggle } = useThemeMode();
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const themeLabel = mode === 'dark' ? t('topBar.lightMode') : t('topBar.darkMode');
  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      {/* Narrower buttons on a phone, so the greeting keeps some room beside every control. */}
      <Toolbar variant="dense" sx={{ gap: { xs: 0, sm: 0.5 }, px: { xs: 1, sm: 2 }, '& .MuiIconButton-root': { p: { xs: 0.75, sm: 1 } } }}>
        <IconButton color="inherit" edge="start" onClick={onToggleMenu} aria-label={t('menu.expand')}>
          <MenuIcon />
        </IconButton>
        <Typography variant="body1" noWrap sx={{ flexGrow: 1, minWidth: 0 }} data-testid="greeting">
          {t('topBar.greeting', { name: user.name, company: user.company?.name ?? '' })}
          {greetingSuffix}
        </Typography>
        <Tooltip title={t('topBar.language')}>
          <IconButton
            color="inherit"
            onClick={(event) => setLanguageAnchor(event.currentTarget)}
            aria-label={t('topBar.language')}
            data-testid="language-button"
            sx={languageInMenuOnPhone ? { display: { xs: 'none', sm: 'inline-flex' } } : undefined}
          >
            <Translate />
          </IconButton>
        </Tooltip>
        <Tooltip title={themeLabel}>
          <IconButton color="inherit" onClick={toggle} aria-label={themeLabel} data-testid="theme-toggle">
            {mode === 'dark' ? <Brightness7 /> : <Brightness4 />}
          </IconButton>
        </Tooltip>
        {children}
      </Toolbar>
      <MountWhenOpened open={languageAnchor !== null}>
        <LanguageMenu anchor={languageAnchor} onClose={() => setLanguageAnchor(null)} />
      </MountWhenOpened>
    </AppBar>
  );
}
