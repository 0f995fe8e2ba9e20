import { can, companyEvent, visibleMenuItems, type MenuGroup, type PresentedUser } from '@atende/shared';
import { Badge, List, ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useApi } from '../../api/session';
import { useSocket } from '../../realtime/socket';
import { useUnreadChats } from '../../features/chats/use-unread-chats';
import { MENU_ICONS } from './menu-icons';

/** Connection statuses that ask an admin to act (spec part 2 §2.2: the menu's warning badge). */
const ATTENTION_STATUSES = new Set(['DISCONNECTED', 'qrcode', 'TIMEOUT', 'PAIRING']);
/** Spec part 1 §9: the connection alert check waits 2 s after the menu appears. */
const CONNECTION_ALERT_DELAY_MS = 2000;

/** True when any of the company's connections needs attention; admins only, kept live. */
function useConnectionAlert(user: PresentedUser): boolean {
  const api = useApi();
  const socket = useSocket();
  const queryClient = useQueryClient();
  const isAdmin = can(user, 'connections-page:actionButtons');
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), CONNECTION_ALERT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const connections = useQuery({
    queryKey: ['connections-alert'],
    queryFn: () => api.get<{ status: string }[]>('/whatsapp', { session: 0 }),
    enabled: isAdmin && ready,
  });
  useEffect(() => {
    if (!socket || !isAdmin) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: ['connections-alert'] });
    const events = [companyEvent(user.companyId, 'whatsapp'), companyEvent(user.companyId, 'whatsappSession')];
    for (const event of events) socket.on(event, refresh);
    return () => {
      for (const event of events) socket.off(event, refresh);
    };
  }, [socket, isAdmin, queryClient, user.companyId]);
  return (connections.data ?? []).some((connection) => ATTENTION_STATUSES.has(connection.status));
}

const GROUP_TITLES: Record<Exclude<MenuGroup, 'main'>, string> = { campaigns: 'menu.campaignsGroup', admin: 'menu.administration' };

/** The side menu (spec part 1 §2), gated by the same rule table the server enforces. */
export function SideMenu({ user, collapsed, onNavigate }: { user: PresentedUser; collapsed: boolean; onNavigate?(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const version = useQuery({ queryKey: ['version'], queryFn: () => api.get<{ version: string }>('/version'), staleTime: Infinity });
  const plan = user.company?.plan;
  const items = plan
    ? visibleMenuItems({ profile: user.profile, super: user.super, plan })
    : [];
  const groups: MenuGroup[] = ['main', 'campaigns', 'admin'];
  const connectionAlert = useConnectionAlert(user);
  const unreadChats = useUnreadChats();

  return (
    <nav aria-label={t('app.navigation')}>
      {groups.map((group) => {
        const inGroup = items.filter((item) => item.group === group);
        if (inGroup.length === 0) return null;
        return (
          <List
            key={group}
            dense
            data-testid={`menu-group-${group}`}
            subheader={group !== 'main' && !collapsed ? <ListSubheader disableSticky>{t(GROUP_TITLES[group])}</ListSubheader> : undefined}
          >
            {inGroup.map((item) => {
              const label = t(`menu.${item.key}`);
              const alert = item.key === 'connections' && connectionAlert;
              const unread = item.key === 'chats' && unreadChats > 0;
              // A link is not a list item by itself: each sits in its <li>, so the menu reads as lists of links.
              return (
                <ListItem key={item.key} disablePadding>
                  <Tooltip title={collapsed ? label : ''} placement="right">
                    <ListItemButton component={NavLink} to={item.route} end={item.route === '/'} onClick={onNavigate} data-testid={`menu-${item.key}`} aria-label={label}>
                      <ListItemIcon sx={{ minWidth: 40 }}>
                        <Badge
                          color={unread ? 'error' : 'warning'}
                          variant="dot"
                          invisible={!alert && !unread}
                          data-testid={alert ? 'connections-alert' : unread ? 'chats-unread-dot' : undefined}
                        >
                          {MENU_ICONS[item.key] ?? MENU_ICONS.fallback}
                        </Badge>
                      </ListItemIcon>
                      {collapsed ? null : <ListItemText primary={label} />}
                    </ListItemButton>
                  </Tooltip>
                </ListItem>
              );
            })}
          </List>
        );
      })}
      {!collapsed && version.data ? (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 2, py: 1 }} data-testid="app-version">
          {t('app.version', { version: version.data.version })}
        </Typography>
      ) : null}
    </nav>
  );
}
