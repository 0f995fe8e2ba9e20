import { PROMPT_MODELS } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { Dialog, DialogContent, DialogTitle, IconButton, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useQueues } from '../queues/queues-queries';
import { MODEL_LABELS, promptFormDefaults, PromptFormSchema, TEMPERATURE, type Prompt } from './prompt-form';
import { cachePromptEvent } from './prompts-queries';

type FormInput = z.input<typeof PromptFormSchema>;
type FormOutput = z.output<typeof PromptFormSchema>;

/**
 * Add/edit a prompt (spec part 2 §2.12, §5, §9). The stored API key arrives
 * masked and is sent back unchanged unless retyped. Without a queue nothing is
 * sent: the sector-required message shows on the field and as a toast.
 * Mounted while open, so closing resets it.
 */
export function PromptDialog({ prompt, onClose }: { prompt: Prompt | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const queues = useQueues();
  const [showKey, setShowKey] = useState(false);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(PromptFormSchema),
    defaultValues: promptFormDefaults(prompt),
  });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);

  const submit = form.handleSubmit(
    async (values) => {
      try {
        const saved = prompt ? await api.put<Prompt>(`/prompt/${prompt.id}`, values) : await api.post<Prompt>('/prompt', values);
        cachePromptEvent(queryClient, { action: prompt ? 'update' : 'create', prompt: saved });
        toastSuccess(t('prompts.saved'));
        onClose();
      } catch (error) {
        toastError(error);
      }
    },
    (invalid) => {
      if (invalid.queueId) toastError(new Error(t('prompts.sectorRequired')));
    },
  );

  const numberField = (name: 'maxTokens' | 'maxMessages', min: number) => (
    <TextField
      label={t(`prompts.dialog.${name}`)}
      type="number"
      {...form.register(name)}
      error={Boolean(errors[name])}
      helperText={message(errors[name]?.message)}
      required
      fullWidth
      slotProps={{ htmlInput: { min, step: 1, 'data-testid': `prompt-${name}` } }}
    />
  );

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="md" data-testid="prompt-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{prompt ? t('prompts.dialog.editTitle') : t('prompts.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('prompts.dialog.name')}
              {...form.register('name')}
              error={Boolean(errors.name)}
              helperText={message(errors.name?.message)}
              required
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'prompt-name' } }}
            />
            <Controller
              control={form.control}
              name="apiKey"
              render={({ field }) => (
                <TextField
                  label={t('prompts.dialog.apiKey')}
                  type={showKey ? 'text' : 'password'}
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  // A stored key arrives masked: focusing the field selects it, so typing replaces it at once.
                  onFocus={(event) => {
                    if (prompt && field.value === prompt.apiKey) event.target.select();
                  }}
                  error={Boolean(errors.apiKey)}
                  helperText={message(errors.apiKey?.message) ?? (prompt?.apiKey ? t('prompts.dialog.apiKeyKeep') : undefined)}
                  required
                  fullWidth
                  autoComplete="off"
                  slotProps={{
                    htmlInput: { maxLength: 500, 'data-testid': 'prompt-apiKey' },
                    input: {
                      endAdornment: (
                        <InputAdornment position="end">
                          <IconButton
                            aria-label={showKey ? t('prompts.dialog.hideKey') : t('prompts.dialog.showKey')}
                            onClick={() => setShowKey((shown) => !shown)}
                            edge="end"
                          >
                            {showKey ? <VisibilityOff /> : <Visibility />}
                          </IconButton>
                        </InputAdornment>
                      ),
                    },
                  }}
                />
              )}
            />
            <TextField
              label={t('prompts.dialog.prompt')}
              {...form.register('prompt')}
              error={Boolean(errors.prompt)}
              helperText={message(errors.prompt?.message) ?? t('prompts.dialog.promptHint')}
              required
              multiline
              minRows={5}
              maxRows={14}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 20_000, 'data-testid': 'prompt-prompt' } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                control={form.control}
                name="queueId"
                render={({ field }) => (
                  <TextField
                    select
                    label={t('prompts.dialog.queue')}
                    value={field.value ?? ''}
                    onChange={(event) => field.onChange(event.target.value === '' ? '' : Number(event.target.value))}
                    onBlur={field.onBlur}
                    error={Boolean(errors.queueId)}
                    helperText={message(errors.queueId?.message) ?? t('prompts.dialog.queueHint')}
                    required
                    fullWidth
                    slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'prompt-queue' } as object } }}
                  >
                    {(queues.data ?? []).map((queue) => (
                      <MenuItem key={queue.id} value={queue.id} data-testid={`prompt-queue-${queue.id}`}>
                        {queue.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <Controller
                control={form.control}
                name="model"
                render={({ field }) => (
                  <TextField
                    select
                    label={t('prompts.dialog.model')}
                    value={field.value ?? ''}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={Boolean(errors.model)}
                    helperText={message(errors.model?.message)}
                    required
                    fullWidth
                    slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'prompt-model' } as object } }}
                  >
                    {PROMPT_MODELS.map((model) => (
                      <MenuItem key={model} value={model} data-testid={`prompt-model-${model}`}>
                        {MODEL_LABELS[model]}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {numberField('maxTokens', 1)}
              <TextField
                label={t('prompts.dialog.temperature')}
                type="number"
                {...form.register('temperature')}
                error={Boolean(errors.temperature)}
                helperText={message(errors.temperature?.message) ?? t('prompts.dialog.temperatureHint')}
                required
                fullWidth
                slotProps={{ htmlInput: { ...TEMPERATURE, 'data-testid': 'prompt-temperature' } }}
              />
              {numberField('maxMessages', 1)}
            </Stack>
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} cancelTestId="prompt-cancel" saveTestId="prompt-save" />
      </form>
    </Dialog>
  );
}
