import { ContactBody, contactNumber, type ExistingContactAnswer, type PresentedContact } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AddCircleOutlined from '@mui/icons-material/AddCircleOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { Box, Button, CircularProgress, Dialog, DialogContent, DialogTitle, FormControlLabel, IconButton, Stack, Switch, TextField, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { cacheSavedContact, contactKeys } from './contacts-queries';

export interface ContactModalProps {
  open: boolean;
  /** Edit this contact; absent: add a new one. */
  contactId?: number | null;
  /** Prefilled fields when adding (the new-ticket dialog passes the typed name). */
  initialValues?: { name?: string; number?: string; email?: string };
  onClose(): void;
  onSaved?(contact: PresentedContact): void;
}

type ContactFormInput = z.input<typeof ContactBody>;
type ContactFormOutput = z.output<typeof ContactBody>;

const EMPTY: ContactFormInput = { name: '', number: '', email: '', extraInfo: [], birthday: '', disableBot: false };

/**
 * The server's rules, checked before the form is sent: the number goes through the
 * one normaliser, except the stored number sent back as it is (a group's id, a
 * number saved before the rule), which the server keeps too.
 */
const contactForm = (storedNumber: string | undefined) => (storedNumber === undefined ? ContactBody : ContactBody.extend({ number: contactNumber({ keep: storedNumber }) }));

/** Contact modal (spec part 1 §2, §5): add or edit a contact; name 2–50, a valid phone number, email valid. */
export function ContactModal({ open, contactId, initialValues, onClose, onSaved }: ContactModalProps) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const editing = typeof contactId === 'number' && contactId > 0;
  const contact = useQuery({
    queryKey: contactKeys.detail(contactId ?? 0),
    queryFn: () => api.get<PresentedContact>(`/contacts/${contactId}`),
    enabled: open && editing,
    // Always the stored version: someone may have changed it since the list loaded.
    staleTime: 0,
  });
  const storedNumber = useRef<string | undefined>(undefined);
  const form = useForm<ContactFormInput, unknown, ContactFormOutput>({
    resolver: (values, context, options) => zodResolver(contactForm(storedNumber.current))(values, context, options),
    defaultValues: EMPTY,
  });
  const extraInfo = useFieldArray({ control: form.control, name: 'extraInfo' });
  const { reset } = form;
  const loadError = contact.error;
  useEffect(() => {
    if (loadError) toastError(loadError);
  }, [loadError]);
  const { errors, isSubmitting } = form.formState;

  // Fill the form once per opening (from the stored contact, or the caller's values), so a live
  // update of the same contact does not wipe what the user is typing; empty it when it closes.
  // Wait for the stored version, not a cached one that is being refreshed.
  const loaded = editing && !contact.isFetching ? contact.data : undefined;
  const initialName = initialValues?.name;
  const initialNumber = initialValues?.number;
  const initialEmail = initialValues?.email;
  const filled = useRef(false);
  useEffect(() => {
    if (!open) {
      filled.current = false;
      storedNumber.current = undefined;
      reset(EMPTY);
      return;
    }
    if (filled.current) return;
    if (loaded) {
      storedNumber.current = loaded.number;
      reset({
        name: loaded.name,
        number: loaded.number,
        email: loaded.email ?? '',
        extraInfo: loaded.extraInfo.map(({ id, name, value }) => ({ id, name, value })),
        birthday: loaded.birthday ?? '',
        disableBot: loaded.disableBot,
      });
      filled.current = true;
    } else if (!editing) {
      reset({ ...EMPTY, name: initialName ?? '', number: initialNumber ?? '', email: initialEmail ?? '' });
      filled.current = true;
    }
  }, [open, loaded, editing, initialName, initialNumber, initialEmail, reset]);

  const message = (key?: string) => (key ? t(key) : undefined);

  const submit = form.handleSubmit(async (values) => {
    try {
      // The number as typed: the server normalises it (a '+' the digits alone would lose still tells the country).
      const body = { ...values, number: form.getValues('number'), extraInfo: values.extraInfo ?? [] };
      const answer = editing ? await api.put<PresentedContact>(`/contacts/${contactId}`, body) : await api.post<PresentedContact | ExistingContactAnswer>('/contacts', body);
      // The number is another contact's already: say so and keep the form open.
      if ('alreadyExists' in answer) return toastError(new Error(t('errors.ERR_DUPLICATED_CONTACT')));
      const saved = answer;
      cacheSavedContact(queryClient, saved);
      toastSuccess(t('contacts.modal.saved'));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  const loading = editing && !loaded && !contact.isError;
  return (
    <Dialog open={open} onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="contact-modal">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{editing ? t('contacts.modal.editTitle') : t('contacts.modal.addTitle')}</DialogTitle>
        <DialogContent dividers>
          {loading ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Box>
          ) : (
            <Stack spacing={2}>
              <Typography variant="subtitle2">{t('contacts.modal.mainInfo')}</Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('contacts.modal.name')}
                  {...form.register('name')}
                  error={Boolean(errors.name)}
                  helperText={message(errors.name?.message)}
                  autoFocus
                  fullWidth
                  slotProps={{ htmlInput: { 'data-testid': 'contact-name', maxLength: 50 } }}
                />
                <TextField
                  label={t('contacts.modal.number')}
                  {...form.register('number')}
                  error={Boolean(errors.number)}
                  helperText={message(errors.number?.message) ?? t('contacts.modal.numberHint')}
                  fullWidth
                  slotProps={{ htmlInput: { 'data-testid': 'contact-number', inputMode: 'tel', maxLength: 60 } }}
                />
              </Stack>
              <TextField
                label={t('contacts.modal.email')}
                type="email"
                {...form.register('email')}
                error={Boolean(errors.email)}
                helperText={message(errors.email?.message)}
                fullWidth
                slotProps={{ htmlInput: { 'data-testid': 'contact-email' } }}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
                <TextField
                  label={t('contacts.modal.birthday')}
                  type="date"
                  {...form.register('birthday')}
                  error={Boolean(errors.birthday)}
                  helperText={message(errors.birthday?.message)}
                  sx={{ minWidth: 200 }}
                  slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'contact-birthday', min: '1900-01-01' } }}
                />
                <Controller
                  name="disableBot"
                  control={form.control}
                  render={({ field }) => (
                    <FormControlLabel
                      control={<Switch checked={field.value === true} onChange={(_, checked) => field.onChange(checked)} slotProps={{ input: { 'data-testid': 'contact-disable-bot' } as object }} />}
                      label={t('contacts.modal.disableBot')}
                    />
                  )}
                />
              </Stack>
              <Typography variant="subtitle2">{t('contacts.modal.extraInfo')}</Typography>
              {extraInfo.fields.map((field, index) => (
                <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="contact-extra-row">
                  <TextField
                    size="small"
                    label={t('contacts.modal.extraName')}
                    {...form.register(`extraInfo.${index}.name`)}
                    error={Boolean(errors.extraInfo?.[index]?.name)}
                    helperText={message(errors.extraInfo?.[index]?.name?.message)}
                    sx={{ flex: 1 }}
                  />
                  <TextField
                    size="small"
                    label={t('contacts.modal.extraValue')}
                    {...form.register(`extraInfo.${index}.value`)}
                    error={Boolean(errors.extraInfo?.[index]?.value)}
                    helperText={message(errors.extraInfo?.[index]?.value?.message)}
                    sx={{ flex: 1 }}
                  />
                  <Tooltip title={t('contacts.modal.removeExtra')}>
                    <IconButton aria-label={t('contacts.modal.removeExtra')} onClick={() => extraInfo.remove(index)}>
                      <DeleteOutlined />
                    </IconButton>
                  </Tooltip>
                </Stack>
              ))}
              <Box>
                <Button startIcon={<AddCircleOutlined />} onClick={() => extraInfo.append({ name: '', value: '' })} data-testid="contact-extra-add">
                  {t('contacts.modal.addExtra')}
                </Button>
              </Box>
            </Stack>
          )}
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="contact-save" saveDisabled={loading || contact.isError} />
      </form>
    </Dialog>
  );
}
