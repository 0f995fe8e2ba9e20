import type { PresentedMessage, PresentedTicket } from '@atende/shared';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http-client';
import { toastError } from '../../components/toast';
import { Composer } from './composer';
import { ContactDrawer } from './contact-drawer';
import { useConversationLive, useMessages, useTicket } from './conversation-queries';
import { MessageList } from './message-list';
import { TagBar } from './tag-bar';
import { TicketHeader } from './ticket-header';

export interface ConversationProps {
  /** The ticket's uuid, as in /tickets/:ticketId. */
  ticketUuid: string;
  /** Narrow layouts: a back button in the header. */
  onBack?(): void;
}

/** The conversation screen (spec part 1 §2): header, tag bar, messages, composer, contact drawer. */
export function Conversation({ ticketUuid, onBack }: ConversationProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ticket = useTicket(ticketUuid);
  const handled = useRef<unknown>(null);

  // Outside the user's queues (403) or gone (404): say so and go back to the list (spec part 1 §6).
  useEffect(() => {
    const error = ticket.error;
    if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 404) || handled.current === error) return;
    handled.current = error;
    toastError(error.status === 403 ? new Error(t('conversation.accessDenied')) : error);
    void navigate('/tickets');
  }, [ticket.error, navigate, t]);

  if (ticket.isPending) {
    return (
      <Box role="status" aria-label={t('common.loading')} sx={{ display: 'flex', height: '100%', alignItems: 'center', justifyContent: 'center' }}>
        <CircularProgress />
      </Box>
    );
  }
  if (ticket.isError) {
    return (
      <Stack spacing={1} sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
        <Typography>{t('conversation.loadFailed')}</Typography>
        <Button onClick={() => void ticket.refetch()}>{t('conversation.retry')}</Button>
      </Stack>
    );
  }
  // Keyed by ticket: the quoted message, the drawer and the scroll position belong to one ticket.
  return <LoadedConversation key={ticket.data.id} ticket={ticket.data} uuid={ticketUuid} onBack={onBack} />;
}

function LoadedConversation({ ticket, uuid, onBack }: { ticket: PresentedTicket; uuid: string; onBack?(): void }) {
  const [quoted, setQuoted] = useState<PresentedMessage | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  useConversationLive(ticket, uuid);

  return (
    <Box data-testid="conversation" data-ticket={uuid} data-status={ticket.status} sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, position: 'relative' }}>
      <TicketHeader ticket={ticket} onOpenContact={() => setDrawerOpen(true)} onBack={onBack} />
      <TagBar ticket={ticket} />
      <MessageList ticketId={ticket.id} isGroup={ticket.isGroup} onReply={ticket.status === 'open' ? setQuoted : undefined} />
      <Composer ticket={ticket} quoted={ticket.status === 'open' ? quoted : null} onClearQuoted={() => setQuoted(null)} />
      <ContactDrawer open={drawerOpen} ticket={ticket} onClose={() => setDrawerOpen(false)} />
    </Box>
  );
}

/** Read-only message history of a ticket, for the admins' peek dialog. */
export function ConversationPreview({ ticketId }: { ticketId: number }) {
  const messages = useMessages(ticketId);
  const ticket = messages.data?.pages[0]?.ticket;
  return (
    <Box data-testid="conversation-preview" data-ticket={ticketId} sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 300 }}>
      <MessageList ticketId={ticketId} isGroup={ticket?.isGroup ?? false} readOnly />
    </Box>
  );
}
