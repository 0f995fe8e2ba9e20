import type { PresentedTicket } from '@atende/shared';
import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, DialogTitle, IconButton, useMediaQuery, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ConversationPreview } from '../conversation/conversation';

/** An admin's read-only look into a ticket without taking it (spec part 1 §2, §6). */
export function TicketPeekDialog({ ticket, onClose }: { ticket: PresentedTicket | null; onClose(): void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={ticket !== null} onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} data-testid="ticket-peek-dialog">
      <DialogTitle sx={{ pr: 6 }}>
        {ticket ? t('tickets.peek.title', { name: ticket.contact.name }) : null}
        <IconButton aria-label={t('common.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }} data-testid="ticket-peek-close">
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0, height: { xs: '100%', sm: '70vh' }, display: 'flex', flexDirection: 'column' }}>
        {ticket ? <ConversationPreview ticketId={ticket.id} /> : null}
      </DialogContent>
    </Dialog>
  );
}
