import { HelpBody } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Dialog, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { helpsKey, sortHelps, type Help } from '../helps/helps-queries';

type HelpFormValues = z.input<typeof HelpBody>;

/** Add or edit a help video (spec part 2 §2.15 Helps tab): title, video code, description. Mounted while open, so closing resets it. */
export function HelpDialog({ help, onClose }: { help: Help | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<HelpFormValues, unknown, z.output<typeof HelpBody>>({
    resolver: zodResolver(HelpBody),
    defaultValues: { title: help?.title ?? '', video: help?.video ?? '', description: help?.description ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = help ? await api.put<Help>(`/helps/${help.id}`, values) : await api.post<Help>('/helps', values);
      queryClient.setQueryData<Help[]>(helpsKey, (list) => (list ? sortHelps([...list.filter((h) => h.id !== saved.id), saved]) : list));
      toastSuccess(t('helps.tab.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="help-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{help ? t('helps.tab.editTitle') : t('helps.tab.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('helps.tab.fields.title')}
              {...form.register('title')}
              error={Boolean(errors.title)}
              helperText={message(errors.title?.message)}
              required
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'help-title' } }}
            />
            <TextField
              label={t('helps.tab.fields.video')}
              {...form.register('video')}
              error={Boolean(errors.video)}
              helperText={message(errors.video?.message) ?? t('helps.tab.fields.videoHint')}
              required
              fullWidth
              slotProps={{ htmlInput: { maxLength: 300, 'data-testid': 'help-video', spellCheck: false, autoCapitalize: 'off' } }}
            />
            <TextField
              label={t('helps.tab.fields.description')}
              {...form.register('description')}
              error={Boolean(errors.description)}
              helperText={message(errors.description?.message)}
              multiline
              minRows={3}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'help-description' } }}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} cancelTestId="help-cancel" saveTestId="help-save" />
      </form>
    </Dialog>
  );
}
