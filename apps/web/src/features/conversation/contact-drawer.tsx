import type { PresentedContact, PresentedTicket } from '@atende/shared';
import Close from '@mui/icons-material/Close';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { Avatar, Box, Button, CircularProgress, Divider, Drawer, IconButton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { ContactNotes } from './contact-notes';

// Loaded when the agent edits: its number check brings the phone library's metadata, which the desk does not otherwise need.
const ContactEditForm = lazy(() => import('./contact-edit-form').then((module) => ({ default: module.ContactEditForm })));

export interface ContactDrawerProps {
  open: boolean;
  ticket: PresentedTicket;
  onClose(): void;
}

/** The slide-in contact panel of the conversation (spec part 1 §2): details, inline edit, extra info, internal notes. */
export function ContactDrawer({ open, ticket, onClose }: ContactDrawerProps) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [editing, setEditing] = useState(false);
  const contact = useQuery({
    queryKey: ['contact', ticket.contactId],
    queryFn: () => api.get<PresentedContact>(`/contacts/${ticket.contactId}`),
    enabled: open,
  });
  const shown = contact.data ?? { ...ticket.contact, extraInfo: [] };

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // Above the app bar, which sits over the side menu.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{ paper: { 'data-testid': 'contact-drawer', sx: { width: { xs: '100%', sm: 380 } } } as object }}>
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('conversation.drawer.title')}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('conversation.drawer.close')} data-testid="contact-drawer-close">
          <Close />
        </IconButton>
      </Stack>
      <Box sx={{ p: 2, overflowY: 'auto' }}>
        <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Avatar src={shown.profilePicUrl || undefined} alt={shown.name} sx={{ width: 96, height: 96 }} />
          <Typography variant="h6" data-testid="contact-drawer-name" sx={{ wordBreak: 'break-word' }}>
            {shown.name}
          </Typography>
          <Typography color="text.secondary">{shown.number}</Typography>
          {shown.email ? <Typography color="text.secondary">{shown.email}</Typography> : null}
          {contact.isLoading ? <CircularProgress size={20} /> : null}
          {!editing ? (
            <Button startIcon={<EditOutlined />} variant="outlined" size="small" disabled={!contact.data} onClick={() => setEditing(true)} data-testid="contact-edit">
              {t('conversation.drawer.edit')}
            </Button>
          ) : null}
        </Stack>
        {editing && contact.data ? (
          <Suspense fallback={<CircularProgress size={20} />}>
            <ContactEditForm contact={contact.data} ticket={ticket} onDone={() => setEditing(false)} />
          </Suspense>
        ) : contact.data && contact.data.extraInfo.length > 0 ? (
          <Box sx={{ mt: 2 }} data-testid="contact-extra-info">
            <Typography variant="subtitle2">{t('conversation.drawer.extraInfo')}</Typography>
            {contact.data.extraInfo.map((info, index) => (
              <Box key={info.id ?? index} sx={{ py: 0.5 }}>
                <Typography variant="caption" color="text.secondary">
                  {info.name}
                </Typography>
                <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                  {info.value}
                </Typography>
              </Box>
            ))}
          </Box>
        ) : null}
        <Divider sx={{ my: 2 }} />
        <ContactNotes ticket={ticket} />
      </Box>
    </Drawer>
  );
}
