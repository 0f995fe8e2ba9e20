import { ContactBody, type PresentedContact, type PresentedTicket } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Close from '@mui/icons-material/Close';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { Avatar, Box, Button, CircularProgress, Divider, Drawer, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';
import { ContactNotes } from './contact-notes';
import { ticketKey } from './conversation-queries';

type ContactFormInput = z.input<typeof ContactBody>;
type ContactFormOutput = z.output<typeof ContactBody>;

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
          <ContactEditForm contact={contact.data} ticket={ticket} onDone={() => setEditing(false)} />
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

function ContactEditForm({ contact, ticket, onDone }: { contact: PresentedContact; ticket: PresentedTicket; onDone(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<ContactFormInput, unknown, ContactFormOutput>({
    resolver: zodResolver(ContactBody),
    defaultValues: {
      name: contact.name,
      number: contact.number,
      email: contact.email ?? '',
      extraInfo: contact.extraInfo.map((info) => ({ ...(info.id ? { id: info.id } : {}), name: info.name, value: info.value })),
    },
  });
  const extra = useFieldArray({ control: form.control, name: 'extraInfo' });
  const { errors } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await api.put<PresentedContact>(`/contacts/${contact.id}`, values);
      queryClient.setQueryData(['contact', contact.id], saved);
      queryClient.setQueryData<PresentedTicket>(ticketKey(ticket.uuid), (current) =>
        current ? { ...current, contact: { ...current.contact, name: saved.name, number: saved.number, email: saved.email } } : current,
      );
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      toastSuccess(t('conversation.drawer.saved'));
      onDone();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ mt: 2 }} data-testid="contact-edit-form">
      <Stack spacing={2}>
        <TextField label={t('conversation.drawer.name')} size="small" {...form.register('name')} error={Boolean(errors.name)} helperText={message(errors.name?.message)} slotProps={{ htmlInput: { 'data-testid': 'contact-name' } }} />
        <TextField label={t('conversation.drawer.number')} size="small" {...form.register('number')} error={Boolean(errors.number)} helperText={message(errors.number?.message)} slotProps={{ htmlInput: { 'data-testid': 'contact-number', inputMode: 'tel' } }} />
        <TextField label={t('conversation.drawer.email')} size="small" type="email" {...form.register('email')} error={Boolean(errors.email)} helperText={message(errors.email?.message)} slotProps={{ htmlInput: { 'data-testid': 'contact-email' } }} />
        <Typography variant="subtitle2">{t('conversation.drawer.extraInfo')}</Typography>
        {extra.fields.map((field, index) => (
          <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="contact-extra-row">
            <TextField
              label={t('conversation.drawer.extraName')}
              size="small"
              {...form.register(`extraInfo.${index}.name`)}
              error={Boolean(errors.extraInfo?.[index]?.name)}
              helperText={message(errors.extraInfo?.[index]?.name?.message)}
              sx={{ flex: 1 }}
            />
            <TextField
              label={t('conversation.drawer.extraValue')}
              size="small"
              {...form.register(`extraInfo.${index}.value`)}
              error={Boolean(errors.extraInfo?.[index]?.value)}
              helperText={message(errors.extraInfo?.[index]?.value?.message)}
              sx={{ flex: 1 }}
            />
            <IconButton onClick={() => extra.remove(index)} aria-label={t('conversation.drawer.removeExtra')}>
              <DeleteOutline />
            </IconButton>
          </Stack>
        ))}
        <Button size="small" onClick={() => extra.append({ name: '', value: '' })} data-testid="contact-extra-add" sx={{ alignSelf: 'flex-start' }}>
          {t('conversation.drawer.addExtra')}
        </Button>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onDone}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} data-testid="contact-save">
            {t('common.save')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
