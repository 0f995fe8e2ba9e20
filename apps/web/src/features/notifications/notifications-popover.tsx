import type { PresentedTicket } from '@atende/shared';
import { Avatar, Badge, Box, Button, Chip, ListItem, ListItemAvatar, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TopBarPopover, type TopBarPopoverProps } from '../../components/top-bar-popover';
import { useSession } from '../../api/session';
import { SlaBreachList } from '../sla/sla-breach-list';
import { markSlaBreachesSeen } from '../sla/use-sla-breaches';
import { formatTicketTime } from '../tickets/ticket-format';
import { desktopNotificationsSupported, type NotificationsData } from './use-notifications';

interface Props extends TopBarPopoverProps {
  data: NotificationsData | undefined;
  loading: boolean;
}

/** The bell's tickets: rendered only while the popover is open (each row formats its time). */
function NotificationItems({ tickets, onOpen }: { tickets: PresentedTicket[]; onOpen(ticket: PresentedTicket): void }) {
  const { t } = useTranslation();
  return (
    <>
      {tickets.map((ticket) => (
        <ListItem key={ticket.id} disablePadding>
          <ListItemButton onClick={() => onOpen(ticket)} data-testid="notification-item" data-ticket-uuid={ticket.uuid} divider>
            <ListItemAvatar sx={{ minWidth: 48 }}>
              <Badge color="error" badgeContent={ticket.unreadMessages} max={99} invisible={ticket.unreadMessages === 0}>
                <Avatar src={ticket.contact.profilePicUrl || undefined} alt="" sx={{ width: 36, height: 36 }}>
                  {ticket.contact.name.slice(0, 1).toUpperCase()}
                </Avatar>
              </Badge>
            </ListItemAvatar>
            <ListItemText
              primary={ticket.contact.name}
              secondary={ticket.lastMessage || ' '}
              slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
              sx={{ minWidth: 0, mr: 1 }}
            />
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 0.5, flexShrink: 0 }}>
              <Typography variant="caption" color="text.secondary">
                {formatTicketTime(ticket.updatedAt)}
              </Typography>
              {ticket.status === 'pending' ? (
                <Chip size="small" color="warning" variant="outlined" label={t('notifications.pending')} />
              ) : (
                <Chip size="small" color="primary" variant="outlined" label={t('notifications.unread', { count: ticket.unreadMessages })} />
              )}
            </Box>
          </ListItemButton>
        </ListItem>
      ))}
    </>
  );
}

/** The top bar's notifications (spec part 1 §2): each ticket that needs the user opens it. */
export function NotificationsPopover({ anchor, open, onClose, data, loading }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [permission, setPermission] = useState(() => (desktopNotificationsSupported() ? Notification.permission : 'denied'));
  const { user } = useSession();
  const tickets = data?.tickets ?? [];
  const breaches = data?.breaches ?? [];
  const hidden = Math.max(0, (data?.count ?? 0) - (data?.unseenBreaches ?? 0) - tickets.length);
  // Opening the bell is seeing its missed targets: they leave the count.
  useEffect(() => {
    if (open) markSlaBreachesSeen(user?.id);
  }, [open, user?.id]);

  const openTicket = (ticket: PresentedTicket) => {
    onClose();
    void navigate(`/tickets/${ticket.uuid}`);
  };
  // Browsers grant the permission only from a user gesture: this click.
  const askPermission = () => {
    void Notification.requestPermission().then(setPermission, () => undefined);
  };

  return (
    <TopBarPopover
      anchor={anchor}
      open={open}
      onClose={onClose}
      testId="notifications-popover"
      title={t('notifications.title')}
      width={360}
      loading={loading && !data}
      loadingText={t('notifications.loading')}
      empty={tickets.length === 0 && breaches.length === 0 ? t('notifications.empty') : null}
      footer={
        <>
          {hidden > 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
              {t('notifications.more', { count: hidden })}
            </Typography>
          ) : null}
          {permission === 'default' ? (
            <Box sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}>
              <Button size="small" onClick={askPermission} data-testid="enable-desktop-notifications">
                {t('notifications.enableDesktop')}
              </Button>
            </Box>
          ) : null}
        </>
      }
    >
      <SlaBreachList
        breaches={breaches}
        onOpen={(uuid) => {
          onClose();
          void navigate(`/tickets/${uuid}`);
        }}
      />
      <NotificationItems tickets={tickets} onOpen={openTicket} />
    </TopBarPopover>
  );
}
