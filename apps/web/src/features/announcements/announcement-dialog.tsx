import { AnnouncementBody, type PresentedAnnouncement } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import { Button, Chip, Dialog, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { HiddenFileInput } from '../../components/hidden-file-input';
import { toastError, toastSuccess } from '../../components/toast';
import { announcementKeys } from './use-unread-announcements';

type FormInput = z.input<typeof AnnouncementBody>;
type FormOutput = z.output<typeof AnnouncementBody>;
type Attachment = { kind: 'none' } | { kind: 'stored'; name: string } | { kind: 'new'; file: File };

/** Announcement dialog (spec part 2 §2.9): title, text, priority (default 3), status, optional png/jpg/jpeg image. */
export function AnnouncementDialog({ record, onClose }: { record: PresentedAnnouncement | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [attachment, setAttachment] = useState<Attachment>(record?.mediaName ? { kind: 'stored', name: record.mediaName } : { kind: 'none' });
  const [stored, setStored] = useState<PresentedAnnouncement | null>(record);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(AnnouncementBody),
    defaultValues: { title: record?.title ?? '', text: record?.text ?? '', priority: record?.priority ?? 3, status: record?.status ?? true },
  });
  const { errors, isSubmitting } = form.formState;
  // Spec part 2 §5: title and text answer 'Required field'.
  const required = (message?: string) => (message ? (message === 'validation.required' ? t('announcements.dialog.requiredField') : t(message)) : undefined);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = stored ? await api.put<PresentedAnnouncement>(`/announcements/${stored.id}`, values) : await api.post<PresentedAnnouncement>('/announcements', values);
      setStored(saved);
      if (attachment.kind === 'new') {
        const body = new FormData();
        body.append('file', attachment.file);
        await api.post(`/announcements/${saved.id}/media-upload`, body);
      } else if (attachment.kind === 'none' && saved.mediaName) {
        await api.delete(`/announcements/${saved.id}/media-upload`);
      }
      void queryClient.invalidateQueries({ queryKey: announcementKeys.all });
      toastSuccess(t('announcements.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  const attachmentName = attachment.kind === 'new' ? attachment.file.name : attachment.kind === 'stored' ? attachment.name : null;

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="announcement-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{record ? t('announcements.dialog.editTitle') : t('announcements.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('announcements.dialog.title')}
              {...form.register('title')}
              error={Boolean(errors.title)}
              helperText={required(errors.title?.message)}
              required
              autoFocus
              slotProps={{ htmlInput: { 'data-testid': 'announcement-title', maxLength: 200 } }}
            />
            <TextField
              label={t('announcements.dialog.text')}
              {...form.register('text')}
              error={Boolean(errors.text)}
              helperText={required(errors.text?.message)}
              required
              multiline
              minRows={3}
              slotProps={{ htmlInput: { 'data-testid': 'announcement-text', maxLength: 5000 } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                control={form.control}
                name="priority"
                render={({ field }) => (
                  <TextField select label={t('announcements.dialog.priority')} value={field.value ?? 3} onChange={(event) => field.onChange(Number(event.target.value))} fullWidth data-testid="announcement-priority">
                    {[1, 2, 3].map((priority) => (
                      <MenuItem key={priority} value={priority} data-testid={`announcement-priority-${priority}`}>
                        {t(`announcements.priority.${priority}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <Controller
                control={form.control}
                name="status"
                render={({ field }) => (
                  <TextField select label={t('announcements.dialog.status')} value={field.value === false ? 'false' : 'true'} onChange={(event) => field.onChange(event.target.value === 'true')} fullWidth>
                    <MenuItem value="true">{t('announcements.active')}</MenuItem>
                    <MenuItem value="false">{t('announcements.inactive')}</MenuItem>
                  </TextField>
                )}
              />
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Button startIcon={<AttachFile />} onClick={() => fileInput.current?.click()} data-testid="announcement-attach">
                {t('announcements.dialog.attach')}
              </Button>
              {attachmentName ? (
                <Chip label={attachmentName} onDelete={() => setAttachment({ kind: 'none' })} deleteIcon={<Close aria-label={t('announcements.dialog.removeImage')} />} data-testid="announcement-attachment" />
              ) : null}
              <HiddenFileInput
                inputRef={fileInput}
                testId="announcement-file"
                onPick={(file) => setAttachment({ kind: 'new', file })}
              />
            </Stack>
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="announcement-save" />
      </form>
    </Dialog>
  );
}
