import { SCHEDULE_BODY_MIN, SCHEDULE_MEDIA_EXTENSIONS, type PresentedContactPage } from '@atende/shared';
import { Alert, Autocomplete, Box, Button, Dialog, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyTimeZone, useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { AttachmentField, storedAttachment, syncAttachment, type Attachment } from '../../components/attachment-field';
import { toastError, toastSuccess } from '../../components/toast';
import { useUnknownVariables, useVariableInsertion, VariableChips } from '../../components/variable-chips';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { formatDateTime, toZonedInput } from '../../i18n/dates';
import { defaultSendAt } from './schedule-time';
import { cacheSavedSchedule, type Schedule } from './schedules-queries';

/** Spec part 1 §5: the contact search starts at 3 characters. */
const CONTACT_SEARCH_MIN = 3;

export interface ScheduleContact {
  id: number;
  name: string;
  number?: string;
}

function isAllowedImage(file: File): boolean {
  const name = file.name.toLowerCase();
  return SCHEDULE_MEDIA_EXTENSIONS.some((ext) => name.endsWith(ext));
}

export interface ScheduleDialogProps {
  /** The schedule to edit, or null to add one. */
  record: Schedule | null;
  /** Fixed contact (opened from a ticket or `?contactId=`). */
  contact?: ScheduleContact | null;
  /** A day picked on the calendar: the default send time moves to it. */
  initialSendAt?: string;
  onClose(): void;
  /** Offered for a stored schedule (the calendar asks for confirmation). */
  onDelete?(record: Schedule): void;
}

/**
 * Schedule dialog (spec part 2 §2.6, §5, §9): contact, message (at least 5
 * characters), send time (default now + 1 h, in the company's time zone) and an
 * optional .png/.jpg/.jpeg image uploaded after the schedule is saved. A sent
 * schedule is shown read-only: it cannot be submitted again. Light on purpose
 * (MUI only): the ticket menu opens it too.
 */
export function ScheduleDialog({ record, contact: fixedContact, initialSendAt, onClose, onDelete }: ScheduleDialogProps) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const timeZone = useCompanyTimeZone();
  const sent = record !== null && (record.sentAt !== null || record.status === 'ENVIADA' || record.status === 'AGENDADA');

  const [contact, setContact] = useState<ScheduleContact | null>(record ? { id: record.contact.id, name: record.contact.name, number: record.contact.number } : (fixedContact ?? null));
  const [input, setInput] = useState(contact?.name ?? '');
  const [body, setBody] = useState(record?.body ?? '');
  const [sendAt, setSendAt] = useState(record ? toZonedInput(new Date(record.sendAt), timeZone) : (initialSendAt ?? defaultSendAt(timeZone)));
  const [attachment, setAttachment] = useState<Attachment>(storedAttachment(record?.mediaName));
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  // Once saved, a retry (after a failed upload) updates the same schedule.
  const [stored, setStored] = useState<Schedule | null>(record);

  const term = useDebouncedValue(input.trim());
  const searching = !fixedContact && !record && term.length >= CONTACT_SEARCH_MIN && !(contact && contact.name === input);
  const contacts = useQuery({
    queryKey: ['contacts', 'search', term],
    queryFn: () => api.get<PresentedContactPage>('/contacts', { searchParam: term, pageNumber: 1 }),
    enabled: searching,
  });
  const options: ScheduleContact[] = contacts.data?.contacts ?? (contact ? [contact] : []);

  // Filled when it is sent, for the contact and the ticket it goes into.
  const variables = useVariableInsertion('body');
  const unknownVariables = useUnknownVariables()(body);
  const bodyError = (submitted && body.trim().length < SCHEDULE_BODY_MIN ? (body.trim() ? t('validation.tooShort') : t('validation.required')) : undefined) ?? unknownVariables;
  const contactError = submitted && !contact ? t('validation.required') : undefined;
  const sendAtError = submitted && !sendAt ? t('validation.required') : undefined;

  const submit = async () => {
    setSubmitted(true);
    if (sent || !contact || body.trim().length < SCHEDULE_BODY_MIN || !sendAt || unknownVariables) return;
    setSaving(true);
    try {
      const values = { body: body.trim(), contactId: contact.id, sendAt };
      const saved = stored ? await api.put<Schedule>(`/schedules/${stored.id}`, values) : await api.post<Schedule>('/schedules', values);
      setStored(saved);
      const final = await syncAttachment(api, `/schedules/${saved.id}`, saved, attachment);
      cacheSavedSchedule(queryClient, final);
      toastSuccess(t('schedules.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  const title = sent ? t('schedules.dialog.sentTitle') : record ? t('schedules.dialog.editTitle') : t('schedules.dialog.addTitle');

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="sm" data-testid="schedule-dialog">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            {record?.status === 'ERRO' ? (
              <Alert severity="error" data-testid="schedule-dialog-error">
                {t('schedules.status.ERRO')} · {t('schedules.dialog.errorReason', { reason: record.reason ? t(`errors.${record.reason}`, { defaultValue: record.reason }) : '' })}
              </Alert>
            ) : null}
            {sent ? (
              <Alert severity="info" data-testid="schedule-dialog-sent">
                {record?.sentAt ? t('schedules.dialog.sentAt', { date: formatDateTime(record.sentAt, timeZone) }) : t('schedules.status.AGENDADA')} · {t('schedules.dialog.alreadySent')}
              </Alert>
            ) : null}
            <Autocomplete<ScheduleContact>
              options={options}
              value={contact}
              onChange={(_, value) => setContact(value)}
              inputValue={input}
              onInputChange={(_, value) => setInput(value)}
              filterOptions={(list) => list}
              getOptionLabel={(option) => option.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              disabled={sent || Boolean(fixedContact) || record !== null}
              loading={searching && contacts.isFetching}
              loadingText={t('common.loading')}
              noOptionsText={term.length < CONTACT_SEARCH_MIN ? t('schedules.dialog.contactHint') : t('schedules.dialog.noContacts')}
              renderOption={(props, option) => {
                const { key, ...rest } = props;
                return (
                  <Box component="li" key={key} {...rest} data-testid="schedule-contact-option">
                    {option.name}
                    {option.number ? (
                      <Box component="span" sx={{ ml: 1, color: 'text.secondary' }}>
                        {option.number}
                      </Box>
                    ) : null}
                  </Box>
                );
              }}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('schedules.dialog.contact')}
                  required
                  error={Boolean(contactError)}
                  helperText={contactError ?? (contact ? undefined : t('schedules.dialog.contactHint'))}
                  slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'schedule-contact' } }}
                />
              )}
            />
            <TextField
              label={t('schedules.dialog.body')}
              value={body}
              onChange={(event) => setBody(event.target.value)}
              {...variables.target('body')}
              required
              multiline
              minRows={4}
              maxRows={12}
              disabled={sent}
              error={Boolean(bodyError)}
              helperText={bodyError}
              autoFocus={!sent}
              slotProps={{ htmlInput: { 'data-testid': 'schedule-body', maxLength: 10_000 } }}
            />
            {sent ? null : <VariableChips kind="ticket" onInsert={variables.insert} />}
            <TextField
              label={t('schedules.dialog.sendAt')}
              type="datetime-local"
              value={sendAt}
              onChange={(event) => setSendAt(event.target.value)}
              required
              disabled={sent}
              error={Boolean(sendAtError)}
              helperText={sendAtError ?? t('schedules.dialog.sendAtHint', { timeZone })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'schedule-send-at' } }}
            />
            <AttachmentField
              value={attachment}
              onChange={setAttachment}
              disabled={sent}
              accept={SCHEDULE_MEDIA_EXTENSIONS.join(',')}
              check={(file) => (isAllowedImage(file) ? null : t('schedules.dialog.badFile'))}
              onRefused={(message) => toastError(new Error(message))}
              labels={{ attach: t('schedules.dialog.attach'), hint: t('schedules.dialog.attachHint'), remove: t('schedules.dialog.removeAttachment') }}
              testId="schedule-attachment"
            >
              {record && onDelete ? (
                <Button
                  color="error"
                  onClick={() => {
                    onClose();
                    onDelete(record);
                  }}
                  sx={{ ml: 1 }}
                  data-testid="schedule-delete"
                >
                  {t('schedules.dialog.delete')}
                </Button>
              ) : null}
            </AttachmentField>
          </Stack>
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={onClose} saveTestId="schedule-save" saveDisabled={sent} />
      </form>
    </Dialog>
  );
}
