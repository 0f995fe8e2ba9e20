import type { PresentedTicket } from '@atende/shared';
import CheckIcon from '@mui/icons-material/Check';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ReplayIcon from '@mui/icons-material/Replay';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import { Avatar, Box, Button, Chip, IconButton, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTicketActions } from './ticket-actions';
import { FormattedText } from '../conversation/format-message';
import { formatTicketTime, lastMessageKind, shortenName } from './ticket-format';
import { SlaMark } from '../sla/sla-mark';

interface TicketListItemProps {
  ticket: PresentedTicket;
  selected: boolean;
  /** Under 600 px: long contact names are shortened (spec part 1 §9). */
  narrow: boolean;
  /** Admins may peek into any ticket (spec part 1 §6). */
  canPeek: boolean;
  onPeek(ticket: PresentedTicket): void;
}

const STRIP_FALLBACK = 'grey.400';

function LastMessage({ value }: { value: string }) {
  const { t } = useTranslation();
  const kind = lastMessageKind(value);
  // A text preview keeps WhatsApp's formatting (the agent's signature is *bold*), on one line.
  const text = kind === 'text' ? <FormattedText text={value.replace(/\s+/g, ' ')} /> : t(`tickets.item.${kind}`);
  return (
    <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0, fontStyle: kind === 'text' ? 'normal' : 'italic' }}>
      {text}
    </Typography>
  );
}

/** One row of the ticket lists (spec part 1 §2 "Ticket list item"). */
export const TicketListItem = memo(function TicketListItem({ ticket, selected, narrow, canPeek, onPeek }: TicketListItemProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actions = useTicketActions();
  // Pending tickets are accepted first, never opened by a click (spec part 1 §2).
  const openable = ticket.status !== 'pending';

  const open = () => {
    if (openable) void navigate(`/tickets/${ticket.uuid}`);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
    }
  };
  // The buttons sit inside the clickable row: they must not also open the ticket.
  const act = (run: () => unknown) => (event: MouseEvent) => {
    event.stopPropagation();
    run();
  };

  const unread = ticket.unreadMessages;
  return (
    <Box
      data-testid="ticket-item"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      role={openable ? 'link' : undefined}
      tabIndex={openable ? 0 : undefined}
      aria-current={selected ? 'page' : undefined}
      onClick={open}
      onKeyDown={openable ? onKeyDown : undefined}
      sx={{
        display: 'flex',
        gap: 1.25,
        pl: 1.5,
        pr: 1,
        py: 1,
        position: 'relative',
        borderBottom: 1,
        borderColor: 'divider',
        cursor: openable ? 'pointer' : 'default',
        bgcolor: selected ? 'action.selected' : 'transparent',
        '&:hover': openable ? { bgcolor: selected ? 'action.selected' : 'action.hover' } : undefined,
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
      }}
    >
      <Tooltip title={ticket.queue?.name ?? t('tickets.item.noQueue')} placement="right">
        <Box sx={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: 6, bgcolor: ticket.queue?.color || STRIP_FALLBACK }} />
      </Tooltip>
      <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name} sx={{ width: 44, height: 44, mt: 0.25 }}>
        {ticket.contact.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Typography variant="subtitle2" noWrap sx={{ minWidth: 0 }} title={ticket.contact.name}>
            {shortenName(ticket.contact.name, narrow)}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }} aria-label={t('tickets.item.ticketNumber', { id: ticket.id })}>
            #{ticket.id}
          </Typography>
          {ticket.chatbot ? (
            <Tooltip title={t('tickets.item.chatbot')}>
              <SmartToyOutlinedIcon fontSize="small" color="action" aria-label={t('tickets.item.chatbot')} data-testid="ticket-chatbot" />
            </Tooltip>
          ) : null}
          <Typography variant="caption" color={unread > 0 ? 'success.main' : 'text.secondary'} sx={{ ml: 'auto', flexShrink: 0, fontWeight: unread > 0 ? 600 : 400 }} data-testid="ticket-time">
            {formatTicketTime(ticket.updatedAt)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.25 }}>
          <LastMessage value={ticket.lastMessage} />
          {unread > 0 ? (
            <Box
              data-testid="ticket-unread"
              aria-label={t('tickets.item.unread', { count: unread })}
              sx={{
                flexShrink: 0,
                minWidth: 20,
                height: 20,
                px: 0.75,
                borderRadius: 10,
                bgcolor: 'success.main',
                color: 'success.contrastText',
                fontSize: 12,
                fontWeight: 600,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
              }}
            >
              {unread}
            </Box>
          ) : null}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5, mt: 0.75 }}>
          <SlaMark ticket={ticket} />
          {ticket.whatsapp ? <Chip size="small" variant="outlined" label={ticket.whatsapp.name} title={t('tickets.item.connection')} /> : null}
          {ticket.user ? <Chip size="small" variant="outlined" color="primary" label={ticket.user.name} title={t('tickets.item.attendant')} /> : null}
          <Chip
            size="small"
            label={ticket.queue?.name ?? t('tickets.item.noQueue')}
            sx={ticket.queue ? { bgcolor: ticket.queue.color, color: (theme) => theme.palette.getContrastText(ticket.queue?.color || '#9e9e9e') } : undefined}
          />
          {ticket.tags.map((tag) => (
            <Chip
              key={tag.id}
              size="small"
              label={tag.name}
              sx={{ bgcolor: tag.color, color: (theme) => theme.palette.getContrastText(tag.color || '#9e9e9e') }}
            />
          ))}
          <Box sx={{ ml: 'auto', display: 'flex', alignItems: 'center', gap: 0.5 }}>
            {canPeek ? (
              <Tooltip title={t('tickets.item.peek')}>
                <IconButton size="small" aria-label={t('tickets.item.peek')} data-testid="ticket-peek" onClick={act(() => onPeek(ticket))}>
                  <VisibilityOutlinedIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            ) : null}
            {ticket.status === 'pending' ? (
              <Button
                size="small"
                variant="contained"
                color="success"
                startIcon={<CheckIcon />}
                sx={{ py: 0.25 }}
                disabled={actions.busy}
                data-testid="ticket-accept"
                onClick={act(() => actions.accept(ticket))}
              >
                {t('tickets.item.accept')}
              </Button>
            ) : null}
            {ticket.status !== 'closed' ? (
              <Tooltip title={t('tickets.item.close')}>
                <span>
                  <IconButton size="small" color="primary" aria-label={t('tickets.item.close')} disabled={actions.busy} data-testid="ticket-close" onClick={act(() => actions.close(ticket))}>
                    <DoneAllIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            ) : (
              <Tooltip title={t('tickets.item.reopen')}>
                <span>
                  <IconButton size="small" color="primary" aria-label={t('tickets.item.reopen')} disabled={actions.busy} data-testid="ticket-reopen" onClick={act(() => actions.reopen(ticket))}>
                    <ReplayIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            )}
          </Box>
        </Box>
      </Box>
    </Box>
  );
});
