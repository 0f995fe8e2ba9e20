import { ContactListBody, ContactListItemBody, contactNumber, type PresentedContactList, type PresentedContactListItem } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Dialog, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { cacheSavedContactList, contactListKeys } from './contact-lists-queries';

/** Contact list dialog (spec part 2 §5: name required, 2 to 50). */
export function ContactListDialog({ list, onClose }: { list: PresentedContactList | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof ContactListBody>, unknown, z.output<typeof ContactListBody>>({
    resolver: zodResolver(ContactListBody),
    defaultValues: { name: list?.name ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = list ? await api.put<PresentedContactList>(`/contact-lists/${list.id}`, values) : await api.post<PresentedContactList>('/contact-lists', values);
      cacheSavedContactList(queryClient, saved);
      toastSuccess(t('contactLists.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });
  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="xs" data-testid="contact-list-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{list ? t('contactLists.dialog.editTitle') : t('contactLists.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <TextField
            label={t('contactLists.dialog.name')}
            {...form.register('name')}
            error={Boolean(errors.name)}
            helperText={errors.name?.message ? t(errors.name.message) : undefined}
            required
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { 'data-testid': 'contact-list-name', maxLength: 50 } }}
          />
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="contact-list-save" />
      </form>
    </Dialog>
  );
}

const ItemForm = ContactListItemBody.omit({ contactListId: true });

/** An edited item's stored number sent back as it is stays, as on the server; any other goes through the one normaliser. */
const itemForm = (storedNumber: string | undefined) => (storedNumber === undefined ? ItemForm : ItemForm.extend({ number: contactNumber({ keep: storedNumber }) }));

/** List item dialog (spec part 2 §5: name 2 to 50, a valid phone number, valid e-mail). */
export function ContactListItemDialog({ listId, item, onClose }: { listId: number; item: PresentedContactListItem | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof ItemForm>, unknown, z.output<typeof ItemForm>>({
    resolver: zodResolver(itemForm(item?.number)),
    defaultValues: { name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      // The number as typed: the server normalises it (a '+' the digits alone would lose still tells the country).
      const body = { ...values, number: form.getValues('number') };
      if (item) await api.put(`/contact-list-items/${item.id}`, body);
      else await api.post('/contact-list-items', { ...body, contactListId: listId });
      void queryClient.invalidateQueries({ queryKey: contactListKeys.items(listId) });
      void queryClient.invalidateQueries({ queryKey: contactListKeys.one(listId) });
      toastSuccess(t('contactLists.items.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });
  const field = (name: 'name' | 'number' | 'email', maxLength: number, required: boolean) => (
    <TextField
      label={t(`contactLists.items.dialog.${name}`)}
      {...form.register(name)}
      error={Boolean(errors[name])}
      helperText={errors[name]?.message ? t(errors[name].message) : undefined}
      required={required}
      autoFocus={name === 'name'}
      fullWidth
      slotProps={{ htmlInput: { 'data-testid': `contact-list-item-${name}`, maxLength, ...(name === 'number' ? { inputMode: 'tel' } : {}) } }}
    />
  );
  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="xs" data-testid="contact-list-item-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{item ? t('contactLists.items.dialog.editTitle') : t('contactLists.items.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            {field('name', 50, true)}
            {field('number', 60, true)}
            {field('email', 200, false)}
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="contact-list-item-save" />
      </form>
    </Dialog>
  );
}
