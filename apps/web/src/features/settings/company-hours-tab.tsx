import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';
import { companyKey, useCompany, type Company } from './companies-queries';
import { schedulesPayload, validateWeek, weekRows, type WeekdayHours } from './weekly-hours';
import { WeeklyHoursEditor } from './weekly-hours-editor';

/**
 * The Schedules tab (spec part 2 §2.15): the company's business hours, Monday to
 * Sunday, used when scheduleType is `company`. Saved with
 * `PUT /companies/:id/schedules` once every day is valid.
 */
export function CompanyHoursTab({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const company = useCompany(user?.companyId);

  if (company.isPending) {
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress size={28} aria-label={t('common.loading')} />
      </Box>
    );
  }
  if (company.isError) return <Alert severity="error">{t('settings.loadError')}</Alert>;
  // Keyed by the stored hours' time, so a save elsewhere (or ours) restarts the form from them.
  return <CompanyHoursForm key={company.data.updatedAt} company={company.data} readOnly={readOnly} />;
}

function CompanyHoursForm({ company, readOnly }: { company: Company; readOnly: boolean }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<WeekdayHours[]>(() => weekRows(company.schedules));
  const [showErrors, setShowErrors] = useState(false);
  const [saving, setSaving] = useState(false);
  const configured = company.schedules.length > 0;

  const save = async () => {
    if (Object.keys(validateWeek(rows)).length > 0) {
      setShowErrors(true);
      toastError(new Error(t('settings.schedules.invalid')));
      return;
    }
    setSaving(true);
    try {
      const saved = await api.put<Company>(`/companies/${company.id}/schedules`, { schedules: schedulesPayload(rows) });
      queryClient.setQueryData(companyKey(company.id), saved);
      toastSuccess(t('settings.schedules.saved'));
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack
      component="form"
      spacing={2}
      sx={{ maxWidth: 640 }}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      data-testid="company-hours-form"
    >
      <div>
        <Typography variant="h6" component="h2">
          {t('settings.schedules.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('settings.schedules.hint')}
        </Typography>
      </div>
      {configured ? null : (
        <Alert severity="info" data-testid="company-hours-not-configured">
          {t('settings.schedules.notConfigured')}
        </Alert>
      )}
      <WeeklyHoursEditor rows={rows} onChange={setRows} showErrors={showErrors} disabled={readOnly || saving} testIdPrefix="company" />
      {readOnly ? null : (
        <Box>
          <Button type="submit" variant="contained" disabled={saving} data-testid="company-hours-save">
            {saving ? <CircularProgress size={22} aria-label={t('settings.saving')} /> : t('settings.schedules.save')}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
