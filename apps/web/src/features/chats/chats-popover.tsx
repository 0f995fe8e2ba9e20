import type { PresentedChat } from '@atende/shared';
import { Box, Button, ListItem, ListItemButton } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { TopBarPopover, type TopBarPopoverProps } from '../../components/top-bar-popover';
import { useCompanyEvent } from '../../realtime/socket';
import { ChatRowContent, unreadOf } from './chat-row';
import { chatKeys } from './use-unread-chats';

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
          <ListItem key={chat.id} disablePadding>
            <ListItemButton
              component="a"
              href={`/chats/${chat.uuid}`}
              divider
              data-testid="chats-popover-item"
              data-chat-uuid={chat.uuid}
              data-unread={unread}
            >
              <ChatRowContent chat={chat} unread={unread} />
            </ListItemButton>
          </ListItem>
        );
      })}
    </TopBarPopover>
  );
}
