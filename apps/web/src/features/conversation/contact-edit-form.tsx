import { ContactBody, contactNumber, type PresentedContact, type PresentedTicket } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import { Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';
import { ticketKey } from './conversation-queries';

type ContactFormInput = z.input<typeof ContactBody>;
type ContactFormOutput = z.output<typeof ContactBody>;

/** The contact drawer's inline edit (spec part 1 §2): name, number, email and extra info. */
export function ContactEditForm({ contact, ticket, onDone }: { contact: PresentedContact; ticket: PresentedTicket; onDone(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<ContactFormInput, unknown, ContactFormOutput>({
    // The stored number sent back as it is stays (a group's id): the server keeps it too.
    resolver: zodResolver(ContactBody.extend({ number: contactNumber({ keep: contact.number }) })),
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
      // The number as typed: the server normalises it (a '+' the digits alone would lose still tells the country).
      const saved = await api.put<PresentedContact>(`/contacts/${contact.id}`, { ...values, number: form.getValues('number') });
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
