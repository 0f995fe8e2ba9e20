import { TagBody, type PresentedTag } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Dialog, DialogContent, DialogTitle, FormControlLabel, FormHelperText, Stack, Switch, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { QUEUE_COLORS } from '../queues/queue-colors';
import { TagChip } from './tag-chip';
import { cacheSavedTag } from './tags-queries';

type FormInput = z.input<typeof TagBody>;
type FormOutput = z.output<typeof TagBody>;

/** The colour a new tag starts with: a mid blue of the preset palette. */
const DEFAULT_TAG_COLOR = '#338ccc';

/** The 50 preset colours (spec part 2 §2.4), keyboard-reachable; the chosen one is outlined. */
function ColorPalette({ value, onPick }: { value: string; onPick(color: string): void }) {
  const { t } = useTranslation();
  return (
    <Box
      role="radiogroup"
      aria-label={t('tags.dialog.palette')}
      sx={{ display: 'grid', gridTemplateColumns: 'repeat(10, minmax(24px, 32px))', gap: 0.5, justifyContent: 'start' }}
    >
      {QUEUE_COLORS.map((color) => {
        const selected = value.toLowerCase() === color;
        return (
          <Box
            key={color}
            component="button"
            type="button"
            role="radio"
            aria-checked={selected}
            aria-label={t('tags.dialog.pickColor', { color })}
            title={color}
            onClick={() => onPick(color)}
            data-testid={`tag-color-${color.slice(1)}`}
            sx={{
              aspectRatio: '1',
              width: '100%',
              p: 0,
              borderRadius: 1,
              cursor: 'pointer',
              bgcolor: color,
              border: 2,
              borderColor: selected ? 'text.primary' : 'transparent',
              '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 1 },
            }}
          />
        );
      })}
    </Box>
  );
}

/**
 * Tag modal (spec part 2 §2.4, §5): name (at least 3 characters), colour from
 * the 50-colour palette and, for admins only, the kanban toggle (the server
 * refuses it from anyone else). Mounted while open, so closing resets it.
 */
export function TagDialog({ tag, onClose }: { tag: PresentedTag | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  // The spec also names a supervisor profile; this product has none (admin and user only).
  const mayToggleKanban = user?.profile === 'admin';
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(TagBody),
    defaultValues: { name: tag?.name ?? '', color: tag?.color ?? DEFAULT_TAG_COLOR, kanban: tag?.kanban ?? 0 },
  });
  const { errors, isSubmitting } = form.formState;
  const name = useWatch({ control: form.control, name: 'name' });
  const color = useWatch({ control: form.control, name: 'color' }) ?? DEFAULT_TAG_COLOR;

  const submit = form.handleSubmit(async (values) => {
    const body = { name: values.name, color: values.color, ...(mayToggleKanban ? { kanban: values.kanban ?? 0 } : {}) };
    try {
      const saved = tag ? await api.put<PresentedTag>(`/tags/${tag.id}`, body) : await api.post<PresentedTag>('/tags', body);
      cacheSavedTag(queryClient, saved);
      toastSuccess(t('tags.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="xs" data-testid="tag-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{tag ? t('tags.dialog.editTitle') : t('tags.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('tags.dialog.name')}
              {...form.register('name')}
              error={Boolean(errors.name)}
              helperText={errors.name?.message ? t(errors.name.message) : undefined}
              required
              autoFocus
              slotProps={{ htmlInput: { 'data-testid': 'tag-name', maxLength: 100 } }}
            />
            <Box>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {t('tags.dialog.color')}
              </Typography>
              <Controller control={form.control} name="color" render={({ field }) => <ColorPalette value={field.value ?? ''} onPick={field.onChange} />} />
            </Box>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" color="text.secondary">
                {t('tags.dialog.preview')}
              </Typography>
              <TagChip name={name.trim() || '—'} color={color} data-testid="tag-preview" />
            </Stack>
            {mayToggleKanban ? (
              <Controller
                control={form.control}
                name="kanban"
                render={({ field }) => (
                  <Box>
                    <FormControlLabel
                      control={
                        <Switch
                          checked={Number(field.value) === 1}
                          onChange={(_, checked) => field.onChange(checked ? 1 : 0)}
                          slotProps={{ input: { 'aria-describedby': 'tag-kanban-hint' } }}
                          data-testid="tag-kanban"
                        />
                      }
                      label={t('tags.dialog.kanban')}
                    />
                    <FormHelperText id="tag-kanban-hint" sx={{ mt: 0 }}>
                      {t('tags.dialog.kanbanHint')}
                    </FormHelperText>
                  </Box>
                )}
              />
            ) : null}
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="tag-save" />
      </form>
    </Dialog>
  );
}
