import { AUTO_ASSIGN_MODES, MAX_OPEN_TICKETS_LIMIT, type QueueBody } from '@atende/shared';
import { MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

type Form = UseFormReturn<z.input<typeof QueueBody>, unknown, z.output<typeof QueueBody>>;

/**
 * The queue's auto-assignment (issue 35): the mode and the default most open tickets per
 * agent. A section of its own in the queue dialog's data tab.
 */
export function QueueAutoAssignFields({ form }: { form: Form }) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  return (
    <Stack spacing={1} component="section" aria-labelledby="queue-auto-assign-title" data-testid="queue-auto-assign">
      <Typography variant="subtitle2" id="queue-auto-assign-title">
        {t('queues.autoAssign.title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Controller
          control={form.control}
          name="autoAssign"
          render={({ field }) => (
            <TextField
              select
              label={t('queues.autoAssign.mode')}
              value={field.value ?? 'off'}
              onChange={(event) => field.onChange(event.target.value)}
              onBlur={field.onBlur}
              error={Boolean(errors.autoAssign)}
              helperText={errors.autoAssign?.message ? t(errors.autoAssign.message) : t('queues.autoAssign.modeHint')}
              fullWidth
              slotProps={{ htmlInput: { 'data-testid': 'queue-autoAssign' } }}
            >
              {AUTO_ASSIGN_MODES.map((mode) => (
                <MenuItem key={mode} value={mode} data-testid={`queue-autoAssign-${mode}`}>
                  {t(`queues.autoAssign.modes.${mode}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <TextField
          label={t('queues.autoAssign.capacity')}
          type="number"
          {...form.register('defaultMaxOpenTickets')}
          error={Boolean(errors.defaultMaxOpenTickets)}
          helperText={errors.defaultMaxOpenTickets?.message ? t(errors.defaultMaxOpenTickets.message) : t('queues.autoAssign.capacityHint')}
          fullWidth
          slotProps={{ htmlInput: { min: 1, max: MAX_OPEN_TICKETS_LIMIT, step: 1, 'data-testid': 'queue-defaultMaxOpenTickets' } }}
        />
      </Stack>
    </Stack>
  );
}
