import { Stack, TextField, Typography } from '@mui/material';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ConnectionFormOutput, ConnectionFormValues } from './connection-form';

type Form = UseFormReturn<ConnectionFormValues, unknown, ConnectionFormOutput>;

/** Business hours, Monday to Sunday (spec part 2 §9); a day whose start equals its end is closed. */
export function ConnectionHoursFields({ form }: { form: Form }) {
  const { t } = useTranslation();
  const schedules = form.getValues('schedules');
  const errors = form.formState.errors.schedules;
  const message = (key?: string) => (key ? t(key) : undefined);
  return (
    <Stack spacing={1.5} data-testid="connection-hours">
      <Typography variant="body2" color="text.secondary">
        {t('connections.dialog.hoursHelp')}
      </Typography>
      {schedules.map((entry, index) => (
        <Stack key={entry.weekdayEn} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }} data-testid="connection-hours-row">
          <Typography sx={{ width: { sm: 160 }, flexShrink: 0 }}>{t(`connections.weekdays.${entry.weekdayEn}`)}</Typography>
          <Stack direction="row" spacing={1} sx={{ flex: 1 }}>
            <TextField
              type="time"
              size="small"
              label={t('connections.dialog.startTime')}
              {...form.register(`schedules.${index}.startTime`)}
              error={Boolean(errors?.[index]?.startTime)}
              helperText={message(errors?.[index]?.startTime?.message)}
              fullWidth
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `hours-start-${entry.weekdayEn}` } }}
            />
            <TextField
              type="time"
              size="small"
              label={t('connections.dialog.endTime')}
              {...form.register(`schedules.${index}.endTime`)}
              error={Boolean(errors?.[index]?.endTime)}
              helperText={message(errors?.[index]?.endTime?.message)}
              fullWidth
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `hours-end-${entry.weekdayEn}` } }}
            />
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}
