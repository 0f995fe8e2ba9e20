import { Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { maskTime, validateWeek, type HoursField, type WeekdayHours } from './weekly-hours';

const FIELDS: { field: HoursField; label: string; testId: string }[] = [
  { field: 'startTime', label: 'settings.hours.start', testId: 'start' },
  { field: 'endTime', label: 'settings.hours.end', testId: 'end' },
  { field: 'startTimeB', label: 'settings.hours.startB', testId: 'startB' },
  { field: 'endTimeB', label: 'settings.hours.endB', testId: 'endB' },
];

/**
 * Monday to Sunday with start and end times typed as `##:##` (spec part 2 §2.3,
 * §2.15), and an optional second interval a day (whaticket v6's afternoon). Used by the company's Schedules tab and by a queue's attendance hours.
 * Errors show once `showErrors` is set (after a first save attempt).
 */
export function WeeklyHoursEditor({
  rows,
  onChange,
  showErrors,
  disabled,
  testIdPrefix,
}: {
  rows: WeekdayHours[];
  onChange(rows: WeekdayHours[]): void;
  showErrors: boolean;
  disabled?: boolean;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const errors = showErrors ? validateWeek(rows) : {};
  const set = (index: number, field: HoursField, value: string) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [field]: maskTime(value) } : row)));

  return (
    <Stack spacing={1.5} data-testid={`${testIdPrefix}-hours`}>
      {rows.map((row, index) => {
        const rowErrors = errors[row.weekdayEn];
        const dayName = t(`settings.hours.days.${row.weekdayEn}`);
        return (
          <Stack key={row.weekdayEn} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }} data-testid={`${testIdPrefix}-day-${row.weekdayEn}`}>
            <Typography sx={{ width: { sm: 140 }, flexShrink: 0, fontWeight: 500 }}>{dayName}</Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flex: 1, flexWrap: 'wrap' }}>
              {FIELDS.map(({ field, label: labelKey, testId }) => {
                const error = rowErrors?.[field];
                const label = t(labelKey);
                return (
                  <TextField
                    key={field}
                    size="small"
                    label={label}
                    value={row[field]}
                    disabled={disabled}
                    onChange={(event) => set(index, field, event.target.value)}
                    error={Boolean(error)}
                    helperText={error ? t(error) : undefined}
                    placeholder="00:00"
                    sx={{ flex: '1 1 120px', maxWidth: 160 }}
                    slotProps={{
                      htmlInput: {
                        inputMode: 'numeric',
                        maxLength: 5,
                        'aria-label': `${dayName} ${label}`,
                        'data-testid': `${testIdPrefix}-${row.weekdayEn}-${testId}`,
                      },
                    }}
                  />
                );
              })}
            </Stack>
          </Stack>
        );
      })}
      <Typography variant="caption" color="text.secondary">
        {t('settings.hours.closedHint')}
      </Typography>
    </Stack>
  );
}
