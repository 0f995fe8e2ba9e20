import type { PresentedHolidayPeriod } from '@atende/shared';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import { Alert, Box, Button, IconButton, List, ListItem, ListItemText, Stack, Switch, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';

interface Draft {
  id: number | null;
  startDate: string;
  endDate: string;
  message: string;
  repeatIntervalHours: string;
}

const EMPTY: Draft = { id: null, startDate: '', endDate: '', message: '', repeatIntervalHours: '24' };

/** What the form refuses before sending: both days, the end not before the start, 1–720 hours. */
export function draftErrors(draft: Draft): Partial<Record<'startDate' | 'endDate' | 'repeatIntervalHours', string>> {
  const errors: Partial<Record<'startDate' | 'endDate' | 'repeatIntervalHours', string>> = {};
  if (!draft.startDate) errors.startDate = 'validation.required';
  if (!draft.endDate) errors.endDate = 'validation.required';
  else if (draft.startDate && draft.endDate < draft.startDate) errors.endDate = 'validation.endBeforeStart';
  const hours = Number(draft.repeatIntervalHours);
  if (!Number.isInteger(hours) || hours < 1 || hours > 720) errors.repeatIntervalHours = 'validation.invalidValue';
  return errors;
}

/**
 * A connection's holiday periods (whaticket v6): days it is closed, when customers get the
 * period's message instead of the bot. Each change is saved at once (not with the dialog).
 */
export function HolidayPeriodsPanel({ connectionId }: { connectionId: number | null }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const key = ['holiday-periods', connectionId];
  const periods = useQuery({
    queryKey: key,
    queryFn: () => api.get<PresentedHolidayPeriod[]>(`/whatsapp/${connectionId}/holiday-periods`),
    enabled: connectionId !== null,
  });
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);
  if (connectionId === null) return <Alert severity="info">{t('connections.holidays.saveFirst')}</Alert>;

  const base = `/whatsapp/${connectionId}/holiday-periods`;
  const errors = showErrors ? draftErrors(draft) : {};
  const reload = () => queryClient.invalidateQueries({ queryKey: key });
  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      await reload();
      toastSuccess(t(done));
      return true;
    } catch (error) {
      toastError(error instanceof ApiError ? error : new Error(String(error)));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    if (Object.keys(draftErrors(draft)).length > 0) {
      setShowErrors(true);
      return;
    }
    const body = { startDate: draft.startDate, endDate: draft.endDate, message: draft.message, repeatIntervalHours: Number(draft.repeatIntervalHours) };
    const ok = await run(() => (draft.id === null ? api.post(base, body) : api.put(`${base}/${draft.id}`, body)), 'connections.holidays.saved');
    if (ok) {
      setDraft(EMPTY);
      setShowErrors(false);
    }
  };
  const field = (name: 'startDate' | 'endDate' | 'repeatIntervalHours', type: string) => (
    <TextField
      type={type}
      size="small"
      label={t(`connections.holidays.${name}`)}
      value={draft[name]}
      onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
      error={Boolean(errors[name])}
      helperText={errors[name] ? t(errors[name]) : undefined}
      sx={{ flex: '1 1 150px' }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `holiday-${name}`, ...(type === 'number' ? { min: 1, max: 720 } : {}) } }}
    />
  );

  return (
    <Stack spacing={2} sx={{ pt: 1 }} data-testid="holiday-periods">
      <Typography variant="body2" color="text.secondary">
        {t('connections.holidays.help')}
      </Typography>
      {periods.isError ? <Alert severity="error">{t('connections.holidays.loadFailed')}</Alert> : null}
      {periods.data && periods.data.length === 0 ? <Typography color="text.secondary">{t('connections.holidays.empty')}</Typography> : null}
      {periods.data && periods.data.length > 0 ? (
        <List dense disablePadding>
          {periods.data.map((period) => (
            <ListItem
              key={period.id}
              disableGutters
              data-testid="holiday-period"
              secondaryAction={
                <Box>
                  <Switch
                    checked={period.active}
                    disabled={busy}
                    onChange={(event) => void run(() => api.put(`${base}/${period.id}`, { active: event.target.checked }), 'connections.holidays.saved')}
                    slotProps={{ input: { 'aria-label': t('connections.holidays.active') } }}
                  />
                  <IconButton
                    aria-label={t('connections.holidays.edit')}
                    disabled={busy}
                    onClick={() => setDraft({ id: period.id, startDate: period.startDate, endDate: period.endDate, message: period.message, repeatIntervalHours: String(period.repeatIntervalHours) })}
                  >
                    <Edit />
                  </IconButton>
                  <IconButton aria-label={t('connections.holidays.delete')} disabled={busy} onClick={() => void run(() => api.delete(`${base}/${period.id}`), 'connections.holidays.deleted')}>
                    <Delete />
                  </IconButton>
                </Box>
              }
              sx={{ pr: 18 }}
            >
              <ListItemText primary={t('connections.holidays.range', { start: period.startDate, end: period.endDate })} secondary={period.message || t('connections.holidays.defaultMessage')} />
            </ListItem>
          ))}
        </List>
      ) : null}
      <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
        <Typography component="legend" variant="subtitle2">
          {draft.id === null ? t('connections.holidays.addTitle') : t('connections.holidays.editTitle')}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {field('startDate', 'date')}
          {field('endDate', 'date')}
          {field('repeatIntervalHours', 'number')}
        </Stack>
        <TextField
          size="small"
          label={t('connections.holidays.message')}
          value={draft.message}
          onChange={(event) => setDraft({ ...draft, message: event.target.value })}
          multiline
          minRows={2}
          helperText={t('connections.holidays.messageHelp')}
          slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'holiday-message' } }}
        />
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" onClick={() => void save()} disabled={busy} data-testid="holiday-save">
            {draft.id === null ? t('connections.holidays.add') : t('connections.holidays.update')}
          </Button>
          {draft.id !== null ? (
            <Button onClick={() => setDraft(EMPTY)} disabled={busy}>
              {t('common.cancel')}
            </Button>
          ) : null}
        </Stack>
      </Stack>
    </Stack>
  );
}
