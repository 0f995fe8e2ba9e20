import type { PresentedChat } from '@atende/shared';
import { Badge, ListItemText, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatTicketTime } from '../tickets/ticket-format';

/** The signed-in user's unread count in a chat. */
export const unreadOf = (chat: PresentedChat, userId: number | undefined) => chat.users.find((member) => member.userId === userId)?.unreads ?? 0;

/** What a chat's row shows, in the chat list and the top bar's popover: title, last message, time and the user's unread count. */
export function ChatRowContent({ chat, unread }: { chat: PresentedChat; unread: number }) {
  const { t } = useTranslation();
  return (
    <>
      <ListItemText
        primary={chat.title}
        secondary={chat.lastMessage || ' '}
        slotProps={{ primary: { noWrap: true, sx: { fontWeight: unread > 0 ? 600 : undefined } }, secondary: { noWrap: true } }}
        sx={{ minWidth: 0, mr: 1 }}
      />
      <Stack spacing={0.5} sx={{ alignItems: 'flex-end', flexShrink: 0 }}>
        <Typography variant="caption" color="text.secondary">
          {formatTicketTime(chat.updatedAt)}
        </Typography>
        <Badge color="error" badgeContent={unread} max={99} invisible={unread === 0} sx={{ mr: 1 }} data-testid="chat-unread" aria-label={t('chats.unread', { count: unread })} />
      </Stack>
    </>
  );
}
