import { hasDueDate, LANGUAGES, type Language } from '@atende/shared';
import Brightness4 from '@mui/icons-material/Brightness4';
import Brightness7 from '@mui/icons-material/Brightness7';
import Logout from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import Translate from '@mui/icons-material/Translate';
import { Alert, AppBar, IconButton, List, ListItemButton, ListItemIcon, ListItemText, Menu, MenuItem, Toolbar, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useSession } from '../../api/session';
import type { SessionUser } from '../../api/types';
import { toastError } from '../../components/toast';
import { changeLanguage, formatDate } from '../../i18n';
import { useThemeMode } from '../theme';
import { MENU_ICONS } from './menu-icons';

/**
 * What an overdue session shows (its company is past its due date; the server
 * answers 402 everywhere but billing): a bar and a menu that load nothing, so no
 * request is refused, and the banner saying why and how to get access back.
 */
export function OverdueBanner({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const dueDate = user.company?.dueDate;
  const date = hasDueDate(dueDate) ? formatDate(dueDate) : '';
  const text = user.profile !== 'admin' ? t('overdue.notAdmin', { date }) : date ? t('overdue.banner', { date }) : t('overdue.bannerNoDate');
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="overdue-banner">
      {text}
    </Alert>
  );
}

/** The two pages an overdue session opens. */
export function BillingMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?(): void }) {
  const { t } = useTranslation();
  const items = [
    { key: 'financeiro', route: '/financeiro', icon: MENU_ICONS.financeiro },
    { key: 'subscription', route: '/subscription', icon: MENU_ICONS.subscription },
  ];
  return (
    <nav aria-label="menu">
      <List dense data-testid="menu-group-billing">
        {items.map((item) => {
          const label = t(`menu.${item.key}`);
          return (
            <Tooltip key={item.key} title={collapsed ? label : ''} placement="right">
              <ListItemButton component={NavLink} to={item.route} onClick={onNavigate} data-testid={`menu-${item.key}`} aria-label={label}>
                <ListItemIcon sx={{ minWidth: 40 }}>{item.icon}</ListItemIcon>
                {collapsed ? null : <ListItemText primary={label} />}
              </ListItemButton>
            </Tooltip>
          );
        })}
      </List>
    </nav>
  );
}

/** The top bar of an overdue session: greeting, language, theme and logout; no counters (they would be refused). */
export function BillingTopBar({ user, onToggleMenu }: { user: SessionUser; onToggleMenu(): void }) {
  const { t, i18n } = useTranslation();
  const { api, signOut } = useSession();
  const { mode, toggle } = useThemeMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pickLanguage = (language: Language) => {
    setAnchor(null);
    changeLanguage(language);
    api.post(`/users/set-language/${language}`).catch(toastError);
  };
  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar variant="dense" sx={{ gap: 0.5 }}>
        <IconButton color="inherit" edge="start" onClick={onToggleMenu} aria-label={t('menu.expand')}>
          <MenuIcon />
        </IconButton>
        <Typography variant="body1" noWrap sx={{ flexGrow: 1, minWidth: 0 }} data-testid="greeting">
          {t('topBar.greeting', { name: user.name, company: user.company?.name ?? '' })}
        </Typography>
        <Tooltip title={t('topBar.language')}>
          <IconButton color="inherit" onClick={(event) => setAnchor(event.currentTarget)} aria-label={t('topBar.language')} data-testid="language-button">
            <Translate />
          </IconButton>
        </Tooltip>
        <Tooltip title={mode === 'dark' ? t('topBar.lightMode') : t('topBar.darkMode')}>
          <IconButton color="inherit" onClick={toggle} aria-label={mode === 'dark' ? t('topBar.lightMode') : t('topBar.darkMode')} data-testid="theme-toggle">
            {mode === 'dark' ? <Brightness7 /> : <Brightness4 />}
          </IconButton>
        </Tooltip>
        <Tooltip title={t('topBar.logout')}>
          <IconButton color="inherit" onClick={() => void signOut()} aria-label={t('topBar.logout')} data-testid="logout">
            <Logout />
          </IconButton>
        </Tooltip>
      </Toolbar>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((language) => (
          <MenuItem key={language} selected={i18n.language === language} onClick={() => pickLanguage(language)} data-testid={`language-${language}`}>
            {t(`languages.${language}`)}
          </MenuItem>
        ))}
      </Menu>
    </AppBar>
  );
}
