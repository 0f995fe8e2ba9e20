import { ContactListBody, ContactListItemBody, type PresentedContactList, type PresentedContactListItem } from '@atende/shared';
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

/** List item dialog (spec part 2 §5: name 2 to 50, number 8 to 50, valid e-mail). */
export function ContactListItemDialog({ listId, item, onClose }: { listId: number; item: PresentedContactListItem | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof ItemForm>, unknown, z.output<typeof ItemForm>>({
    resolver: zodResolver(ItemForm),
    defaultValues: { name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      if (item) await api.put(`/contact-list-items/${item.id}`, values);
      else await api.post('/contact-list-items', { ...values, contactListId: listId });
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
            {field('number', 50, true)}
            {field('email', 200, false)}
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="contact-list-item-save" />
      </form>
    </Dialog>
  );
}
