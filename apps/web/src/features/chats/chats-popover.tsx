import type { PresentedChat } from '@atende/shared';
import { Badge, Box, Button, CircularProgress, List, ListItemButton, ListItemText, Popover, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';
import { formatTicketTime } from '../tickets/ticket-format';
import { chatKeys } from './use-unread-chats';

interface Props {
  anchor: HTMLElement | null;
  open: boolean;
  onClose(): void;
}

export const unreadOf = (chat: PresentedChat, userId: number | undefined) => chat.users.find((member) => member.userId === userId)?.unreads ?? 0;

/**
 * The top bar's internal chats (spec part 1 §2): the user's chats, unread ones
 * first, live. A chat opens by a full page load of /chats/{uuid}, as the spec says.
 * Loaded on the first open (React.lazy), so pages that never open it do not pay for it.
 */
export default function ChatsPopover({ anchor, open, onClose }: Props) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const chats = useQuery({
    queryKey: [...chatKeys.page(''), 'popover'],
    queryFn: () => api.get<{ records: PresentedChat[]; hasMore: boolean }>('/chats', { pageNumber: 1 }),
    enabled: open,
  });
  useCompanyEvent('chat', () => void queryClient.invalidateQueries({ queryKey: [...chatKeys.page(''), 'popover'] }));
  const records = [...(chats.data?.records ?? [])].sort((a, b) => Number(unreadOf(b, user?.id) > 0) - Number(unreadOf(a, user?.id) > 0));

  return (
    <Popover
      anchorEl={anchor}
      open={open}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { width: 340, maxWidth: 'calc(100vw - 16px)', maxHeight: 'min(480px, calc(100vh - 80px))', display: 'flex', flexDirection: 'column' } } }}
    >
      <Box data-testid="chats-popover" sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5, pb: 1 }}>
          {t('chats.popover.title')}
        </Typography>
        {chats.isPending ? (
          <Box sx={{ p: 2 }} role="status">
            <CircularProgress size={20} aria-label={t('common.loading')} />
          </Box>
        ) : records.length === 0 ? (
          <Typography sx={{ px: 2, pb: 2 }} color="text.secondary" data-testid="chats-popover-empty">
            {t('chats.popover.empty')}
          </Typography>
        ) : (
          <List dense disablePadding sx={{ overflowY: 'auto', minHeight: 0 }}>
            {records.map((chat) => {
              const unread = unreadOf(chat, user?.id);
              return (
                <ListItemButton
                  key={chat.id}
                  component="a"
                  href={`/chats/${chat.uuid}`}
                  divider
                  data-testid="chats-popover-item"
                  data-chat-uuid={chat.uuid}
                  data-unread={unread}
                >
                  <ListItemText
                    primary={chat.title}
                    secondary={chat.lastMessage || ' '}
                    slotProps={{ primary: { noWrap: true, sx: { fontWeight: unread > 0 ? 600 : undefined } }, secondary: { noWrap: true } }}
                    sx={{ minWidth: 0, mr: 1 }}
                  />
                  <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 0.5, flexShrink: 0 }}>
                    <Typography variant="caption" color="text.secondary">
                      {formatTicketTime(chat.updatedAt)}
                    </Typography>
                    <Badge color="error" badgeContent={unread} max={99} invisible={unread === 0} aria-label={t('chats.unread', { count: unread })} sx={{ mr: 1 }} />
                  </Box>
                </ListItemButton>
              );
            })}
          </List>
        )}
        <Box sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}>
          <Button size="small" href="/chats">
            {t('chats.popover.openAll')}
          </Button>
        </Box>
      </Box>
    </Popover>
  );
}
