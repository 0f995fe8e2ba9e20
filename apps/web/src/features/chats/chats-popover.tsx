import type { PresentedChat } from '@atende/shared';
import { Badge, Box, Button, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { TopBarPopover, type TopBarPopoverProps } from '../../components/top-bar-popover';
import { useCompanyEvent } from '../../realtime/socket';
import { formatTicketTime } from '../tickets/ticket-format';
import { chatKeys } from './use-unread-chats';

export const unreadOf = (chat: PresentedChat, userId: number | undefined) => chat.users.find((member) => member.userId === userId)?.unreads ?? 0;

/**
 * The top bar's internal chats (spec part 1 §2): the user's chats, unread ones
 * first, live. A chat opens by a full page load of /chats/{uuid}, as the spec says.
 * Loaded on the first open (React.lazy), so pages that never open it do not pay for it.
 */
export default function ChatsPopover({ anchor, open, onClose }: TopBarPopoverProps) {
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
    <TopBarPopover
      anchor={anchor}
      open={open}
      onClose={onClose}
      testId="chats-popover"
      title={t('chats.popover.title')}
      width={340}
      loading={chats.isPending}
      empty={records.length === 0 ? t('chats.popover.empty') : null}
      footer={
        <Box sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}>
          <Button size="small" href="/chats">
            {t('chats.popover.openAll')}
          </Button>
        </Box>
      }
    >
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
    </TopBarPopover>
  );
}
