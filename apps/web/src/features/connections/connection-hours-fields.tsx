import { Stack, TextField, Typography } from '@mui/material';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ConnectionFormOutput, ConnectionFormValues } from './connection-form';

type Form = UseFormReturn<ConnectionFormValues, unknown, ConnectionFormOutput>;

const FIELDS = [
  { field: 'startTime', testId: 'start' },
  { field: 'endTime', testId: 'end' },
  { field: 'startTimeB', testId: 'startB' },
  { field: 'endTimeB', testId: 'endB' },
] as const;

/** Business hours, Monday to Sunday (spec part 2 §9), with an optional second interval a day; an interval whose start equals its end is closed. */
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
          <Stack direction="row" spacing={1} useFlexGap sx={{ flex: 1, flexWrap: 'wrap' }}>
            {FIELDS.map(({ field, testId }) => (
              <TextField
                key={field}
                type="time"
                size="small"
                label={t(`connections.dialog.${field}`)}
                {...form.register(`schedules.${index}.${field}`)}
                error={Boolean(errors?.[index]?.[field])}
                helperText={message(errors?.[index]?.[field]?.message)}
                sx={{ flex: '1 1 130px' }}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `hours-${testId}-${entry.weekdayEn}` } }}
              />
            ))}
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}
