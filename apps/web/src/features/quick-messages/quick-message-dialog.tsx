import { QuickMessageBody, type PresentedQuickMessage } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import { Box, Button, Chip, Dialog, DialogContent, DialogTitle, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { HiddenFileInput } from '../../components/hidden-file-input';
import { toastError, toastSuccess } from '../../components/toast';
import { useUnknownVariables, useVariableInsertion, VariableChips } from '../../components/variable-chips';
import { mediaFileName, renamedForUpload } from './media-file-name';
import { cacheSavedQuickMessage } from './quick-messages-queries';

type FormInput = z.input<typeof QuickMessageBody>;
type FormOutput = z.output<typeof QuickMessageBody>;

/** The attachment as the dialog holds it: unchanged, a new file to upload, or removed. */
type Attachment = { kind: 'stored'; name: string } | { kind: 'new'; file: File } | { kind: 'none' };

/**
 * Quick message form (spec part 2 §2.5, §5): shortcode (required), message, an
 * optional attachment uploaded after the record is saved, the geral (visible to
 * all: on for a new one an admin makes, as the server defaults it) and status flags.
 * Mounted while open, so closing resets it.
 */
export function QuickMessageDialog({ record, onClose }: { record: PresentedQuickMessage | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [attachment, setAttachment] = useState<Attachment>(record?.mediaName ? { kind: 'stored', name: record.mediaName } : { kind: 'none' });
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(QuickMessageBody),
    defaultValues: { shortcode: record?.shortcode ?? '', message: record?.message ?? '', geral: record?.geral ?? user?.profile === 'admin', status: record?.status ?? true },
  });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);
  // The server fills its variables for the ticket's contact when an agent sends it.
  const variables = useVariableInsertion('message');
  const unknownVariables = useUnknownVariables();
  const unknown = unknownVariables(useWatch({ control: form.control, name: 'message' }));

  // Once saved, a retry (after a failed upload, say) updates the same record instead of adding another.
  const [stored, setStored] = useState<PresentedQuickMessage | null>(record);

  const submit = form.handleSubmit(async (values) => {
    if (unknownVariables(values.message)) return;
    try {
      const before = stored;
      const saved = before ? await api.put<PresentedQuickMessage>(`/quick-messages/${before.id}`, values) : await api.post<PresentedQuickMessage>('/quick-messages', values);
      setStored(saved);
      // The media routes answer the record as it is afterwards.
      let final = saved;
      if (attachment.kind === 'new') {
        const body = new FormData();
        body.append('typeArch', 'quickMessage');
        body.append('file', renamedForUpload(attachment.file));
        final = await api.post<PresentedQuickMessage>(`/quick-messages/${saved.id}/media-upload`, body);
      } else if (attachment.kind === 'none' && saved.mediaName) {
        final = await api.delete<PresentedQuickMessage>(`/quick-messages/${saved.id}/media-upload`);
      }
      cacheSavedQuickMessage(queryClient, final);
      toastSuccess(t('quickMessages.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  const attachmentName = attachment.kind === 'new' ? mediaFileName(attachment.file.name) : attachment.kind === 'stored' ? attachment.name : null;

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="quick-message-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{record ? t('quickMessages.dialog.editTitle') : t('quickMessages.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('quickMessages.dialog.shortcode')}
              {...form.register('shortcode')}
              error={Boolean(errors.shortcode)}
              helperText={message(errors.shortcode?.message) ?? t('quickMessages.dialog.shortcodeHint')}
              required
              autoFocus
              slotProps={{ htmlInput: { 'data-testid': 'quick-message-shortcode', maxLength: 100 } }}
            />
            <TextField
              label={t('quickMessages.dialog.message')}
              {...form.register('message')}
              {...variables.target('message')}
              error={Boolean(errors.message) || Boolean(unknown)}
              helperText={message(errors.message?.message) ?? unknown}
              multiline
              minRows={4}
              maxRows={12}
              slotProps={{ htmlInput: { 'data-testid': 'quick-message-message', maxLength: 4096 } }}
            />
            <VariableChips kind="ticket" onInsert={variables.insert} />
            <Box>
              {attachmentName ? (
                <Chip
                  icon={<AttachFile />}
                  label={attachmentName}
                  onDelete={() => setAttachment({ kind: 'none' })}
                  deleteIcon={<Close aria-label={t('quickMessages.dialog.removeAttachment')} />}
                  data-testid="quick-message-attachment"
                  sx={{ maxWidth: '100%' }}
                />
              ) : (
                <Button startIcon={<AttachFile />} onClick={() => fileInput.current?.click()} data-testid="quick-message-attach">
                  {t('quickMessages.dialog.attach')}
                </Button>
              )}
              <HiddenFileInput inputRef={fileInput} testId="quick-message-file" onPick={(file) => setAttachment({ kind: 'new', file })} />
            </Box>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                control={form.control}
                name="geral"
                render={({ field }) => (
                  <FormControlLabel
                    control={<Switch checked={field.value === true} onChange={(_, checked) => field.onChange(checked)} slotProps={{ input: { 'aria-label': t('quickMessages.dialog.geral') } }} data-testid="quick-message-geral" />}
                    label={t('quickMessages.dialog.geral')}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="status"
                render={({ field }) => (
                  <FormControlLabel
                    control={<Switch checked={field.value === true} onChange={(_, checked) => field.onChange(checked)} data-testid="quick-message-status" />}
                    label={t('quickMessages.dialog.status')}
                  />
                )}
              />
            </Stack>
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="quick-message-save" />
      </form>
    </Dialog>
  );
}
