import type { QueueBody } from '@atende/shared';
import { Stack, TextField, Typography } from '@mui/material';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

type Form = UseFormReturn<z.input<typeof QueueBody>, unknown, z.output<typeof QueueBody>>;

/** The queue's response-time targets (issue 35), a section of the queue modal's data tab. */
export function QueueSlaFields({ form }: { form: Form }) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  const field = (name: 'slaFirstResponseMinutes' | 'slaResolutionMinutes' | 'slaWarnPercent', label: string, max: number) => (
    <TextField
      label={label}
      type="number"
      {...form.register(name)}
      error={Boolean(errors[name])}
      helperText={errors[name]?.message ? t(errors[name].message) : undefined}
      fullWidth
      slotProps={{ htmlInput: { min: 1, max, step: 1, 'data-testid': `queue-${name}` } }}
    />
  );
  return (
    <Stack spacing={1} component="fieldset" sx={{ border: 0, p: 0, m: 0 }} data-testid="queue-sla">
      <Typography component="legend" variant="subtitle2">
        {t('sla.queue.title')}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t('sla.queue.hint')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('slaFirstResponseMinutes', t('sla.queue.firstResponse'), 129_600)}
        {field('slaResolutionMinutes', t('sla.queue.resolution'), 129_600)}
        {field('slaWarnPercent', t('sla.queue.warnPercent'), 99)}
      </Stack>
    </Stack>
  );
}
