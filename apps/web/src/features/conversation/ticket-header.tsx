import { can, type PresentedTicket } from '@atende/shared';
import ArrowBack from '@mui/icons-material/ArrowBack';
import MoreVert from '@mui/icons-material/MoreVert';
import TaskAlt from '@mui/icons-material/TaskAlt';
import Undo from '@mui/icons-material/Undo';
import { Avatar, Box, Button, ButtonBase, IconButton, Menu, MenuItem, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { ConfirmationDialog } from '../../components/confirmation-dialog';
import { useTicketActions } from '../tickets/ticket-actions';
import { SHORTCUT_ATTRIBUTE } from '../tickets/use-ticket-shortcuts';
import { TransferDialog } from './transfer-dialog';

// Loaded when first opened: the tickets screen does not carry the schedules code.
const ScheduleDialog = lazy(() => import('../schedules/schedule-dialog').then((module) => ({ default: module.ScheduleDialog })));

export interface TicketHeaderProps {
  ticket: PresentedTicket;
  onOpenContact(): void;
  /** Narrow layouts show a way back to the list. */
  onBack?(): void;
}

export function TicketHeader({ ticket, onOpenContact, onBack }: TicketHeaderProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const actions = useTicketActions();
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'));
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  // The ticket as shown when the dialog opened: the transfer is refused if it changed meanwhile.
  const [transferFrom, setTransferFrom] = useState<PresentedTicket | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const mayDelete = user ? can(user, 'ticket-options:deleteTicket') : false;
  const details = [
    t('conversation.header.ticket', { id: ticket.id }),
    ticket.user ? t('conversation.header.assignedTo', { name: ticket.user.name }) : null,
    ticket.queue ? t('conversation.header.queue', { name: ticket.queue.name }) : t('conversation.header.noQueue'),
  ].filter(Boolean);

  const closeMenu = () => setMenuAnchor(null);

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper', borderLeft: 6, borderLeftColor: ticket.queue?.color ?? 'grey.400' }} data-testid="ticket-header">
      {onBack ? (
        <IconButton onClick={onBack} aria-label={t('common.close')}>
          <ArrowBack />
        </IconButton>
      ) : null}
      <ButtonBase onClick={onOpenContact} aria-label={t('conversation.header.openContact')} data-testid="ticket-contact" sx={{ flex: 1, minWidth: 0, justifyContent: 'flex-start', textAlign: 'left', borderRadius: 1, gap: 1, p: 0.5 }}>
        <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name} />
        <Box sx={{ minWidth: 0 }}>
          <Typography noWrap sx={{ fontWeight: 600 }}>
            {ticket.contact.name}
            <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
              {ticket.contact.number}
            </Typography>
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {details.join(' · ')}
          </Typography>
        </Box>
      </ButtonBase>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexShrink: 0 }}>
        {ticket.status === 'pending' ? (
          <Button variant="contained" size="small" disabled={actions.busy} onClick={() => void actions.accept(ticket)} data-testid="ticket-accept-button" {...{ [SHORTCUT_ATTRIBUTE]: 'accept' }}>
            {t('conversation.actions.accept')}
          </Button>
        ) : null}
        {ticket.status === 'open' ? (
          <>
            {compact ? (
              <>
                <Tooltip title={t('conversation.actions.return')}>
                  <span>
                    <IconButton disabled={actions.busy} onClick={() => void actions.returnToPending(ticket)} aria-label={t('conversation.actions.return')} data-testid="ticket-return-button">
                      <Undo />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={t('conversation.actions.resolve')}>
                  <span>
                    <IconButton color="primary" disabled={actions.busy} onClick={() => void actions.close(ticket)} aria-label={t('conversation.actions.resolve')} data-testid="ticket-resolve-button" {...{ [SHORTCUT_ATTRIBUTE]: 'close' }}>
                      <TaskAlt />
                    </IconButton>
                  </span>
                </Tooltip>
              </>
            ) : (
              <>
                <Button size="small" disabled={actions.busy} onClick={() => void actions.returnToPending(ticket)} data-testid="ticket-return-button">
                  {t('conversation.actions.return')}
                </Button>
                <Button variant="contained" size="small" disabled={actions.busy} onClick={() => void actions.close(ticket)} data-testid="ticket-resolve-button" {...{ [SHORTCUT_ATTRIBUTE]: 'close' }}>
                  {t('conversation.actions.resolve')}
                </Button>
              </>
            )}
            {compact ? null : (
              <Button size="small" disabled={actions.busy} onClick={() => setTransferFrom(ticket)} data-testid="ticket-transfer-button">
                {t('conversation.actions.transfer')}
              </Button>
            )}
          </>
        ) : null}
        {ticket.status === 'closed' ? (
          <Button variant="contained" size="small" disabled={actions.busy} onClick={() => void actions.reopen(ticket)} data-testid="ticket-reopen-button">
            {t('conversation.actions.reopen')}
          </Button>
        ) : null}
        <IconButton aria-label={t('conversation.actions.options')} aria-haspopup="menu" onClick={(event) => setMenuAnchor(event.currentTarget)} data-testid="ticket-options">
          <MoreVert />
        </IconButton>
      </Stack>
      <Menu anchorEl={menuAnchor} open={Boolean(menuAnchor)} onClose={closeMenu}>
        <MenuItem
          data-testid="ticket-options-transfer"
          onClick={() => {
            closeMenu();
            setTransferFrom(ticket);
          }}
        >
          {t('conversation.actions.transfer')}
        </MenuItem>
        <MenuItem
          data-testid="ticket-options-schedule"
          onClick={() => {
            closeMenu();
            setScheduleOpen(true);
          }}
        >
          {t('conversation.actions.schedule')}
        </MenuItem>
        {mayDelete ? (
          <MenuItem
            data-testid="ticket-options-delete"
            onClick={() => {
              closeMenu();
              setConfirmDelete(true);
            }}
            sx={{ color: 'error.main' }}
          >
            {t('conversation.actions.deleteTicket')}
          </MenuItem>
        ) : null}
      </Menu>
      {scheduleOpen ? (
        <Suspense fallback={null}>
          <ScheduleDialog record={null} contact={{ id: ticket.contact.id, name: ticket.contact.name, number: ticket.contact.number }} onClose={() => setScheduleOpen(false)} />
        </Suspense>
      ) : null}
      {transferFrom ? <TransferDialog ticket={transferFrom} onClose={() => setTransferFrom(null)} onTransfer={(input) => actions.transfer(transferFrom, input)} /> : null}
      <ConfirmationDialog open={confirmDelete} title={t('conversation.actions.deleteConfirm', { name: ticket.contact.name })} onClose={() => setConfirmDelete(false)} onConfirm={() => void actions.remove(ticket)}>
        {t('conversation.actions.deleteWarning')}
      </ConfirmationDialog>
    </Stack>
  );
}
