import type { PresentedMessage } from '@atende/shared';
import { Box, Button, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { ItemConfirmationDialog } from '../../components/confirmation-dialog';
import { toastError } from '../../components/toast';
import { formatDate, formatDateTime } from '../../i18n';
import { storeMessages, useMessages } from './conversation-queries';
import { canEditMessage, EditMessageDialog, ForwardDialog, ReactionMenu } from './message-actions';
import { MessageBubble } from './message-bubble';
import { useRetryMessage } from './use-send-message';
import { buildTimeline, type TimelineItem } from './message-timeline';

/** Spec part 1 §4: older messages load when scrolled within 50 px of the top. */
const LOAD_OLDER_THRESHOLD_PX = 50;
/** Closer than this to the bottom counts as "reading the latest": new messages keep the view there. */
const AT_BOTTOM_PX = 80;

export interface MessageListProps {
  ticketId: number;
  isGroup: boolean;
  /** The peek dialog: no menus. */
  readOnly?: boolean;
  onReply?(message: PresentedMessage): void;
}

function Separator({ item }: { item: Exclude<TimelineItem, { kind: 'message' }> }) {
  const { t } = useTranslation();
  if (item.kind === 'day') {
    return (
      <Box sx={{ alignSelf: 'center', my: 1 }} data-testid="day-separator">
        <Chip size="small" label={formatDate(item.date)} />
      </Box>
    );
  }
  const label = t(item.kind === 'ended' ? 'conversation.list.ended' : 'conversation.list.started', { date: formatDateTime(item.date) });
  return (
    <Typography
      variant="caption"
      data-testid={item.kind === 'ended' ? 'ticket-ended' : 'ticket-started'}
      sx={{ alignSelf: 'center', my: 0.5, px: 1.5, py: 0.25, borderRadius: 1, bgcolor: item.kind === 'ended' ? 'error.light' : 'success.light', color: 'common.white' }}
    >
      {label}
    </Typography>
  );
}

export function MessageList({ ticketId, isGroup, readOnly = false, onReply }: MessageListProps) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const query = useMessages(ticketId);
  const { messages, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const items = useMemo(() => buildTimeline(messages), [messages]);
  const [toDelete, setToDelete] = useState<PresentedMessage | null>(null);
  const [toEdit, setToEdit] = useState<PresentedMessage | null>(null);
  const [reacting, setReacting] = useState<{ message: PresentedMessage; anchor: HTMLElement } | null>(null);
  const [toForward, setToForward] = useState<PresentedMessage[]>([]);

  const scroller = useRef<HTMLDivElement>(null);
  // Distance from the bottom before the last render: restoring it keeps the view still when older messages are prepended.
  const fromBottom = useRef(0);
  const lastSeen = useRef<{ first?: number; last?: number }>({});
  const content = useRef<HTMLDivElement>(null);

  const loadOlderIfNeeded = useCallback(() => {
    const el = scroller.current;
    if (!el || !hasNextPage || isFetchingNextPage) return;
    const nothingToScroll = el.scrollHeight <= el.clientHeight;
    if (el.scrollTop <= LOAD_OLDER_THRESHOLD_PX || nothingToScroll) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    fromBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight;
    loadOlderIfNeeded();
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || messages.length === 0) return;
    const first = messages[0]!;
    const last = messages.at(-1)!;
    const seen = lastSeen.current;
    const opened = seen.last === undefined;
    const appended = !opened && last.id !== seen.last;
    const prepended = !opened && first.id !== seen.first;
    lastSeen.current = { first: first.id, last: last.id };
    if (opened || (appended && (fromBottom.current < AT_BOTTOM_PX || last.fromMe))) {
      el.scrollTop = el.scrollHeight;
    } else if (prepended) {
      el.scrollTop = el.scrollHeight - el.clientHeight - fromBottom.current;
    }
    fromBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight;
  }, [messages]);

  // Images and players get their height only once loaded: a reader at the bottom stays at the bottom.
  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (fromBottom.current < AT_BOTTOM_PX) el.scrollTop = el.scrollHeight;
      fromBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  // A first page that does not fill the screen cannot be scrolled up: fetch the older ones right away.
  useEffect(() => {
    loadOlderIfNeeded();
  }, [messages, loadOlderIfNeeded]);

  const retrySend = useRetryMessage(ticketId);
  const retry = async (message: PresentedMessage) => {
    try {
      await retrySend(message);
    } catch (error) {
      toastError(error);
    }
  };

  const confirmDelete = async (message: PresentedMessage) => {
    try {
      const deleted = await api.delete<PresentedMessage>(`/messages/${message.id}`);
      storeMessages(queryClient, ticketId, [deleted]);
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Box
      ref={scroller}
      onScroll={onScroll}
      data-testid="message-list"
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column', px: { xs: 1, sm: 2 }, py: 1, bgcolor: (theme) => (theme.palette.mode === 'dark' ? 'grey.900' : '#efeae2') }}
    >
      {isFetchingNextPage ? (
        <Stack direction="row" spacing={1} role="status" sx={{ alignSelf: 'center', alignItems: 'center', my: 1 }}>
          <CircularProgress size={16} />
          <Typography variant="caption">{t('conversation.list.loadingOlder')}</Typography>
        </Stack>
      ) : null}
      {query.isPending ? (
        <Box role="status" aria-label={t('common.loading')} sx={{ m: 'auto' }}>
          <CircularProgress />
        </Box>
      ) : null}
      {query.isError ? (
        <Stack spacing={1} sx={{ m: 'auto', alignItems: 'center' }}>
          <Typography>{t('conversation.loadFailed')}</Typography>
          <Button onClick={() => void query.refetch()}>{t('conversation.retry')}</Button>
        </Stack>
      ) : null}
      {query.isSuccess && messages.length === 0 ? (
        <Typography color="text.secondary" sx={{ m: 'auto' }}>
          {t('conversation.list.empty')}
        </Typography>
      ) : null}
      <Box ref={content} sx={{ display: 'flex', flexDirection: 'column', flexShrink: 0 }}>
      {items.map((item) =>
        item.kind === 'message' ? (
          <MessageBubble
            key={item.key}
            message={item.message}
            showSender={isGroup && !item.message.fromMe}
            onReply={readOnly ? undefined : onReply}
            onDelete={readOnly ? undefined : setToDelete}
            onRetry={readOnly ? undefined : (message) => void retry(message)}
            canDelete={Boolean(user && (item.message.userId === user.id || user.profile === 'admin'))}
            onEdit={readOnly ? undefined : setToEdit}
            canEdit={canEditMessage(item.message, user)}
            onReact={readOnly ? undefined : (message, anchor) => setReacting({ message, anchor })}
            onForward={readOnly ? undefined : (message) => setToForward([message])}
          />
        ) : (
          <Separator key={item.key} item={item} />
        ),
      )}
      </Box>
      <EditMessageDialog message={toEdit} onClose={() => setToEdit(null)} />
      <ReactionMenu anchor={reacting?.anchor ?? null} message={reacting?.message ?? null} onClose={() => setReacting(null)} />
      <ForwardDialog messages={toForward} onClose={() => setToForward([])} />
      <ItemConfirmationDialog item={toDelete} title={t('conversation.message.deleteConfirm')} onClose={() => setToDelete(null)} onConfirm={(target) => void confirmDelete(target)}>
        {t('conversation.message.deleteWarning')}
      </ItemConfirmationDialog>
    </Box>
  );
}
