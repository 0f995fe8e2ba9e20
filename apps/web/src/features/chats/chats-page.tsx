import type { ChatEventPayload, PresentedChat } from '@atende/shared';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Logout from '@mui/icons-material/Logout';
import Send from '@mui/icons-material/Send';
import { Box, CircularProgress, IconButton, List, ListItem, ListItemButton, Paper, Stack, Tab, Tabs, TextField, Typography, useMediaQuery, useTheme } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useSession } from '../../api/session';
import { ItemConfirmationDialog } from '../../components/confirmation-dialog';
import { AddButton, ListPageHeader } from '../../components/list-page-parts';
import { toastError, toastSuccess } from '../../components/toast';
import { PLAN_REDIRECT_MS } from '../../components/use-plan-gate';
import { formatDateTime } from '../../i18n';
import { ChatDialog } from './chat-dialog';
import { ChatMessageText } from './chat-message-text';
import { cacheRemovedChat, cacheSavedChat, messagesOf, useChatEvents, useChatMessages, useChatPages } from './chats-queries';
import { ChatRowContent, unreadOf } from './chat-row';
import { chatKeys } from './use-unread-chats';

/** Spec part 2 §9: older messages load when scrolled within 600 px of the top. */
const OLDER_MESSAGES_THRESHOLD_PX = 600;

/** Without the plan's internal chat: the error toast, then / after a second (spec part 2 §6, §9). */
function useChatPlanGate(): boolean {
  const { user } = useSession();
  const navigate = useNavigate();
  const allowed = Boolean(user?.company?.plan?.useInternalChat);
  const told = useRef(false);
  useEffect(() => {
    if (!user || allowed) return;
    if (!told.current) {
      told.current = true;
      toastError(new Error(i18next.t('chats.planDenied')));
    }
    const timer = setTimeout(() => void navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [user, allowed, navigate]);
  return allowed;
}

function ChatList({ chats, selected, onPick, loading }: { chats: PresentedChat[]; selected: PresentedChat | null; onPick(chat: PresentedChat): void; loading: boolean }) {
  const { t } = useTranslation();
  const { user } = useSession();
  if (loading) return <CircularProgress sx={{ m: 2 }} size={24} aria-label={t('common.loading')} />;
  if (chats.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }} data-testid="chats-empty">
        {t('chats.empty')}
      </Typography>
    );
  }
  return (
    <List dense disablePadding data-testid="chat-list">
      {chats.map((chat) => {
        const unread = unreadOf(chat, user?.id);
        return (
          <ListItem key={chat.id} disablePadding>
            <ListItemButton
              selected={chat.id === selected?.id}
              aria-current={chat.id === selected?.id ? 'true' : undefined}
              onClick={() => onPick(chat)}
              divider
              data-testid="chat-list-item"
              data-chat-uuid={chat.uuid}
              data-unread={unread}
            >
              <ChatRowContent chat={chat} unread={unread} />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}

function MessagePane({ chat, onEdit, onDelete, onLeave }: { chat: PresentedChat; onEdit(): void; onDelete(): void; onLeave(): void }) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const messages = useChatMessages(chat.id);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const scroller = useRef<HTMLDivElement | null>(null);
  // Scroll bookkeeping: stick to the bottom for new messages; keep the view still when older ones are put above.
  const atBottom = useRef(true);
  const heightBefore = useRef<number | null>(null);
  const list = messagesOf(messages.data);
  const newestId = list[list.length - 1]?.id;
  const memberNames = chat.users.map((member) => member.user.name);
  const isOwner = chat.ownerId === user?.id;

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    if (heightBefore.current !== null) {
      box.scrollTop += box.scrollHeight - heightBefore.current;
      heightBefore.current = null;
    } else if (atBottom.current) {
      box.scrollTop = box.scrollHeight;
    }
  }, [list.length, newestId]);

  const loadOlderNearTop = (event: UIEvent<HTMLDivElement>) => {
    const box = event.currentTarget;
    atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    if (box.scrollTop < OLDER_MESSAGES_THRESHOLD_PX && messages.hasNextPage && !messages.isFetchingNextPage) {
      heightBefore.current = box.scrollHeight;
      void messages.fetchNextPage();
    }
  };

  const send = async () => {
    if (!draft.trim() || sending) return;
    setSending(true);
    try {
      await api.post(`/chats/${chat.id}/messages`, { message: draft });
      setDraft('');
      atBottom.current = true;
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // Enter sends; Shift+Enter makes a new line (spec part 2 §2.10).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="chat-pane" data-chat-uuid={chat.uuid}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" noWrap data-testid="chat-title-shown">
            {chat.title}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {chat.users.map((member) => (member.userId === user?.id ? t('chats.you') : member.user.name)).join(', ')}
          </Typography>
        </Box>
        {isOwner ? (
          <>
            <Tooltip title={t('chats.edit')}>
              <IconButton onClick={onEdit} aria-label={t('chats.edit')} data-testid="chat-edit">
                <EditOutlined />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('chats.delete')}>
              <IconButton onClick={onDelete} aria-label={t('chats.delete')} data-testid="chat-delete">
                <DeleteOutlined />
              </IconButton>
            </Tooltip>
          </>
        ) : (
          <Tooltip title={t('chats.leave')}>
            <IconButton onClick={onLeave} aria-label={t('chats.leave')} data-testid="chat-leave">
              <Logout />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Box ref={scroller} onScroll={loadOlderNearTop} sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto', px: 2, py: 1 }} data-testid="chat-messages">
        {messages.isFetchingNextPage ? (
          <Typography variant="caption" color="text.secondary" role="status" sx={{ display: 'block', textAlign: 'center' }}>
            {t('chats.loadingOlder')}
          </Typography>
        ) : null}
        {messages.isPending ? <CircularProgress size={24} aria-label={t('common.loading')} /> : null}
        {!messages.isPending && list.length === 0 ? (
          <Typography color="text.secondary" sx={{ textAlign: 'center', mt: 4 }}>
            {t('chats.noMessages')}
          </Typography>
        ) : null}
        {list.map((message) => {
          const mine = message.senderId === user?.id;
          return (
            <Box key={message.id} sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', my: 0.5 }} data-testid="chat-message" data-mine={mine}>
              <Paper
                elevation={0}
                sx={{
                  px: 1.5,
                  py: 0.75,
                  maxWidth: '75%',
                  bgcolor: mine ? 'primary.main' : 'action.hover',
                  color: mine ? 'primary.contrastText' : 'text.primary',
                  borderRadius: 2,
                }}
              >
                {mine ? null : (
                  <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>
                    {message.sender?.name ?? '—'}
                  </Typography>
                )}
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="chat-message-text">
                  <ChatMessageText text={message.message} memberNames={memberNames} myName={user?.name ?? ''} />
                </Typography>
                <Typography variant="caption" sx={{ display: 'block', textAlign: 'right', opacity: 0.75 }}>
                  {formatDateTime(message.createdAt)}
                </Typography>
              </Paper>
            </Box>
          );
        })}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-end', p: 1, borderTop: 1, borderColor: 'divider' }}>
        <TextField
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('chats.placeholder')}
          multiline
          maxRows={5}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { 'data-testid': 'chat-input', 'aria-label': t('chats.placeholder'), maxLength: 4000 } }}
        />
        <IconButton color="primary" onClick={() => void send()} disabled={!draft.trim() || sending} aria-label={t('chats.send')} data-testid="chat-send">
          <Send />
        </IconButton>
      </Stack>
    </Box>
  );
}

/**
 * Internal chat (spec part 2 §2.10) at /chats/{uuid}: the user's chats with unread
 * badges beside the open chat's messages; on narrow screens (under 600 px) two tabs.
 */
export default function ChatsPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const allowed = useChatPlanGate();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { id: uuid } = useParams();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const [tab, setTab] = useState<'list' | 'messages'>(uuid ? 'messages' : 'list');
  const [dialog, setDialog] = useState<{ chat: PresentedChat | null } | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'delete' | 'leave'; chat: PresentedChat } | null>(null);
  const pages = useChatPages('', allowed);
  const chats = pages.data?.pages.flatMap((page) => page.records) ?? [];
  const listed = uuid ? chats.find((chat) => chat.uuid === uuid) : undefined;
  // A chat not on the loaded pages (an old one opened by its address) is asked for on its own.
  const single = useQuery({
    queryKey: chatKeys.one(uuid ?? ''),
    queryFn: () => api.get<PresentedChat>(`/chats/${uuid}`),
    enabled: allowed && Boolean(uuid) && !listed && pages.isSuccess,
    retry: false,
  });
  const selected = listed ?? single.data ?? null;
  const selectedId = selected?.id ?? null;

  const markRead = (chatId: number) =>
    api.post<PresentedChat>(`/chats/${chatId}/read`).then(
      (chat) => {
        cacheSavedChatQuietly(chat);
        void queryClient.invalidateQueries({ queryKey: chatKeys.unread });
      },
      () => undefined,
    );
  // Read keeps the list's order: the chat is replaced where it is.
  const cacheSavedChatQuietly = (chat: PresentedChat) =>
    queryClient.setQueriesData<{ pages: { records: PresentedChat[] }[] }>({ queryKey: chatKeys.pages }, (data) =>
      data && Array.isArray(data.pages) ? { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.map((row) => (row.id === chat.id ? chat : row)) })) } : data,
    );

  // Opening a chat clears the user's unread count (`POST /chats/{id}/read`).
  useEffect(() => {
    if (selectedId !== null) void markRead(selectedId);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedId]);

  useChatEvents((payload: ChatEventPayload) => {
    if (payload.action === 'delete' && payload.id === selectedId) void navigate('/chats', { replace: true });
    // A message arriving in the open chat while the tab is visible is read at once.
    if (payload.action === 'new-message' && payload.chat.id === selectedId && document.visibilityState === 'visible') void markRead(selectedId);
  });

  useEffect(() => {
    if (single.isError) void navigate('/chats', { replace: true });
  }, [single.isError, navigate]);

  const pick = (chat: PresentedChat) => {
    void navigate(`/chats/${chat.uuid}`);
    setTab('messages');
  };
  const finish = async () => {
    if (!confirm) return;
    const { kind, chat } = confirm;
    try {
      await api[kind === 'delete' ? 'delete' : 'post'](kind === 'delete' ? `/chats/${chat.id}` : `/chats/${chat.id}/leave`);
      cacheRemovedChat(queryClient, chat.id);
      toastSuccess(t(kind === 'delete' ? 'chats.deleted' : 'chats.left'));
      void navigate('/chats', { replace: true });
    } catch (error) {
      toastError(error);
    }
  };

  if (!allowed) return null;

  const listPane = <ChatList chats={chats} selected={selected} onPick={pick} loading={pages.isPending} />;
  const messagePane = selected ? (
    <MessagePane
      key={selected.id}
      chat={selected}
      onEdit={() => setDialog({ chat: selected })}
      onDelete={() => setConfirm({ kind: 'delete', chat: selected })}
      onLeave={() => setConfirm({ kind: 'leave', chat: selected })}
    />
  ) : (
    <Typography color="text.secondary" sx={{ p: 3 }} data-testid="chat-pick">
      {t('chats.pick')}
    </Typography>
  );

  return (
    <Stack spacing={1} sx={{ height: { xs: 'calc(100dvh - 88px)', sm: 'calc(100dvh - 96px)' }, minHeight: 360 }}>
      <ListPageHeader title={t('chats.title')}>
        <AddButton label={t('chats.add')} onClick={() => setDialog({ chat: null })} testId="chat-add" />
      </ListPageHeader>
      {narrow ? (
        <Paper variant="outlined" sx={{ flexGrow: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
          <Tabs value={tab} onChange={(_, value: 'list' | 'messages') => setTab(value)} variant="fullWidth">
            <Tab value="list" label={t('chats.listTab')} data-testid="chat-tab-list" />
            <Tab value="messages" label={t('chats.messagesTab')} data-testid="chat-tab-messages" />
          </Tabs>
          <Box sx={{ flexGrow: 1, minHeight: 0, overflowY: tab === 'list' ? 'auto' : 'hidden' }}>{tab === 'list' ? listPane : messagePane}</Box>
        </Paper>
      ) : (
        <Paper variant="outlined" sx={{ flexGrow: 1, minHeight: 0, display: 'grid', gridTemplateColumns: 'minmax(240px, 320px) 1fr' }}>
          <Box
            sx={{ borderRight: 1, borderColor: 'divider', overflowY: 'auto', minHeight: 0 }}
            onScroll={(event: UIEvent<HTMLDivElement>) => {
              const box = event.currentTarget;
              if (box.scrollHeight - box.scrollTop - box.clientHeight < 100 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
            }}
          >
            {listPane}
          </Box>
          <Box sx={{ minHeight: 0, minWidth: 0 }}>{messagePane}</Box>
        </Paper>
      )}
      {dialog ? (
        <ChatDialog
          chat={dialog.chat}
          onClose={() => setDialog(null)}
          onSaved={(chat) => {
            setDialog(null);
            cacheSavedChat(queryClient, chat);
            pick(chat);
          }}
        />
      ) : null}
      <ItemConfirmationDialog
        item={confirm}
        title={confirm ? t(confirm.kind === 'delete' ? 'chats.deleteTitle' : 'chats.leaveTitle', { title: confirm.chat.title }) : ''}
        onClose={() => setConfirm(null)}
        onConfirm={() => void finish()}
      >
        {confirm ? t(confirm.kind === 'delete' ? 'chats.deleteMessage' : 'chats.leaveMessage') : null}
      </ItemConfirmationDialog>
    </Stack>
  );
}
