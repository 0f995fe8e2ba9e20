import { daysBetween, DUE_DATE_WARNING_DAYS, LANGUAGES, LoginBody } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Link, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { forgetSessionEnd, sessionEndReason } from '../../api/storage-keys';
import { toastError, toastInfo } from '../../components/toast';
import { changeLanguage, formatDate } from '../../i18n';
import { calendarDay, displayTimeZone, today } from '../../i18n/dates';
import { preloadSocketClient } from '../../realtime/socket';

/** Whole days from the company's today to its due date (spec part 1 §2). */
function daysUntil(dueDate: string, timeZone: string): number {
  return daysBetween(today(timeZone), calendarDay(dueDate, timeZone));
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const { signIn } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  // A session another login (or a change of rights) ended: said here until dismissed or signed in again.
  const [endedBecause, setEndedBecause] = useState(sessionEndReason);
  const dismissEnded = () => {
    forgetSessionEnd();
    setEndedBecause(null);
  };
  // The credentials of a login refused for an expired subscription: "Pay now" signs in again with them, to pay.
  const [expired, setExpired] = useState<LoginBody | null>(null);
  const [payingNow, setPayingNow] = useState(false);
  const form = useForm({ resolver: zodResolver(LoginBody), defaultValues: { email: '', password: '' } });
  const message = (key?: string) => (key ? t(key) : undefined);
  // Shown: what the session after it needs can load now, without holding this page back.
  useEffect(preloadSocketClient, []);

  const expiredMessage = (error: ApiError) => t('login.expired', { date: typeof error.data.dueDate === 'string' ? formatDate(error.data.dueDate) : '' });

  /**
   * An admin of an overdue company signs in with `billing: true`: the session
   * reaches the billing pages only, and lands on /financeiro. Anyone else is
   * refused again, and the expired message stays.
   */
  const payNow = async () => {
    if (!expired) return;
    setPayingNow(true);
    try {
      await signIn(expired.email, expired.password, { billing: true });
    } catch (error) {
      setExpired(null);
      if (error instanceof ApiError && error.code === 'ERR_SUBSCRIPTION_EXPIRED') setFailure(expiredMessage(error));
      else if (error instanceof ApiError) toastError(error);
      else setFailure(t('login.serverDown'));
    } finally {
      setPayingNow(false);
    }
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    setExpired(null);
    try {
      const user = await signIn(values.email, values.password);
      const dueDate = user.company?.dueDate;
      if (dueDate) {
        const days = daysUntil(dueDate, user.company?.timezone || displayTimeZone());
        if (days < DUE_DATE_WARNING_DAYS) toastInfo(days <= 0 ? t('login.dueToday') : t('login.dueSoon', { count: days }));
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_SUBSCRIPTION_EXPIRED') {
        setFailure(expiredMessage(error));
        setExpired(values);
      } else if (error instanceof ApiError) {
        toastError(error);
      } else {
        setFailure(t('login.serverDown'));
      }
    }
  });

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: 400 }} elevation={3}>
        <Stack component="form" spacing={2} onSubmit={submit} noValidate>
          <Typography variant="h4" component="h1" color="primary" sx={{ textAlign: 'center', fontWeight: 700 }}>
            {t('app.name')}
          </Typography>
          <Typography variant="h6" component="h2" sx={{ textAlign: 'center' }}>
            {t('login.title')}
          </Typography>
          {endedBecause ? (
            <Alert severity="info" onClose={dismissEnded} closeText={t('common.close')} data-testid="login-session-ended">
              {t(`session.${endedBecause}`)}
            </Alert>
          ) : null}
          {failure ? (
            <Alert severity="error" data-testid="login-error">
              {failure}
              {expired ? (
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  {t('login.payNowHint')}
                </Typography>
              ) : null}
            </Alert>
          ) : null}
          {expired ? (
            <Button variant="contained" color="warning" disabled={payingNow} onClick={() => void payNow()} data-testid="login-pay">
              {t('login.payNow')}
            </Button>
          ) : null}
          <TextField
            label={t('login.email')}
            type="email"
            autoComplete="email"
            autoFocus
            {...form.register('email')}
            error={Boolean(form.formState.errors.email)}
            helperText={message(form.formState.errors.email?.message)}
            slotProps={{ htmlInput: { 'data-testid': 'login-email' } }}
          />
          <TextField
            label={t('login.password')}
            type="password"
            autoComplete="current-password"
            {...form.register('password')}
            error={Boolean(form.formState.errors.password)}
            helperText={message(form.formState.errors.password?.message)}
            slotProps={{ htmlInput: { 'data-testid': 'login-password' } }}
          />
          <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
          <TextField select size="small" label={t('login.language')} value={i18n.language.slice(0, 2)} onChange={(e) => changeLanguage(e.target.value as (typeof LANGUAGES)[number])} data-testid="login-language">
            {LANGUAGES.map((language) => (
              <MenuItem key={language} value={language}>
                {t(`languages.${language}`)}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Link component={RouterLink} to="/forgetpsw" variant="body2">
              {t('login.forgot')}
            </Link>
            <Link component={RouterLink} to="/signup" variant="body2">
              {t('login.signup')}
            </Link>
          </Stack>
        </Stack>
      </Paper>
    </Box>
  );
}
