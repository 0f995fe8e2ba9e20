import { hasDueDate, type PresentedUser } from '@atende/shared';
import Logout from '@mui/icons-material/Logout';
import { Alert, IconButton, List, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useSession } from '../../api/session';
import { formatDate } from '../../i18n';
import { MENU_ICONS } from './menu-icons';
import { TopBarFrame } from './top-bar-frame';

/**
 * What an overdue session shows (its company is past its due date; the server
 * answers 402 everywhere but billing): a bar and a menu that load nothing, so no
 * request is refused, and the banner saying why and how to get access back.
 */
export function OverdueBanner({ user }: { user: PresentedUser }) {
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
export function BillingTopBar({ user, onToggleMenu }: { user: PresentedUser; onToggleMenu(): void }) {
  const { t } = useTranslation();
  const { signOut } = useSession();
  return (
    <TopBarFrame user={user} onToggleMenu={onToggleMenu}>
      <Tooltip title={t('topBar.logout')}>
        <IconButton color="inherit" onClick={() => void signOut()} aria-label={t('topBar.logout')} data-testid="logout">
          <Logout />
        </IconButton>
      </Tooltip>
    </TopBarFrame>
  );
}
