import { daysBetween, DUE_DATE_WARNING_DAYS, LANGUAGES, type LoginBody } from '@atende/shared';
import { Alert, Box, Button, FormControl, FormHelperText, InputLabel, Link, NativeSelect, OutlinedInput, Paper, Stack, Typography, type OutlinedInputProps } from '@mui/material';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { forgetSessionEnd, sessionEndReason } from '../../api/storage-keys';
import { toastError, toastInfo } from '../../components/toast';
import { changeLanguage, formatDate } from '../../i18n';
import { calendarDay, displayTimeZone, today } from '../../i18n/dates';
import { preloadSocketClient } from '../../realtime/socket';

type Field = 'email' | 'password';

/**
 * The shared login rules (zod), loaded when the form is first used: the login page is
 * the first screen of most visits, and its first paint needs none of zod. The Socket.IO
 * client the session after it needs starts loading then too.
 */
function loadLoginRules() {
  preloadSocketClient();
  return import('./login-rules').then((rules) => rules.LoginBody);
}

/** Each field's first message, from the shared rules' verdict. */
async function checkLogin(values: LoginBody): Promise<{ values: LoginBody } | { errors: Partial<Record<Field, string>> }> {
  const verdict = (await loadLoginRules()).safeParse(values);
  if (verdict.success) return { values: verdict.data };
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of verdict.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}

/**
 * An outlined text field, as TextField draws it, without TextField's select machinery
 * (menus, popovers, modals) that this page never opens.
 */
function LoginField({
  label,
  error,
  hint,
  testId,
  inputMode,
  ...input
}: { label: string; error: string | undefined; hint?: string; testId: string; inputMode?: 'text' | 'numeric' } & Pick<OutlinedInputProps, 'type' | 'name' | 'autoComplete' | 'autoFocus' | 'value' | 'onChange'>) {
  const id = useId();
  const helper = error ?? hint;
  return (
    <FormControl variant="outlined" error={Boolean(error)} fullWidth>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput id={id} label={label} {...input} inputProps={{ 'data-testid': testId, inputMode, 'aria-describedby': helper ? `${id}-helper` : undefined }} />
      {helper ? <FormHelperText id={`${id}-helper`}>{helper}</FormHelperText> : null}
    </FormControl>
  );
}

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
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  // The credentials of a right password on an account with a second factor: its code is asked next.
  const [secondFactor, setSecondFactor] = useState<LoginBody | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const message = (key?: string) => (key ? t(key) : undefined);
  const edit = (field: Field) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = event.currentTarget.value;
    // Loaded once however often it is asked for (the import and the socket client are cached).
    void loadLoginRules();
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

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
      // The code typed before was spent by the refused sign-in: a second factor asks for a new one.
      const answer = await signIn(expired.email, expired.password, { billing: true });
      if ('twoFactorRequired' in answer) {
        setExpired(null);
        setFailure(null);
        setSecondFactor({ email: expired.email, password: expired.password, billing: true });
        setCode('');
      }
    } catch (error) {
      setExpired(null);
      if (error instanceof ApiError && error.code === 'ERR_SUBSCRIPTION_EXPIRED') setFailure(expiredMessage(error));
      else if (error instanceof ApiError) toastError(error);
      else setFailure(t('login.serverDown'));
    } finally {
      setPayingNow(false);
    }
  };

  const signInWith = async (credentials: LoginBody) => {
    try {
      const user = await signIn(credentials.email, credentials.password, { ...(credentials.billing ? { billing: true } : {}), ...(credentials.code === undefined ? {} : { code: credentials.code }) });
      if ('twoFactorRequired' in user) {
        setSecondFactor(credentials);
        setCode('');
        return;
      }
      const dueDate = user.company?.dueDate;
      if (dueDate) {
        const days = daysUntil(dueDate, user.company?.timezone || displayTimeZone());
        if (days < DUE_DATE_WARNING_DAYS) toastInfo(days <= 0 ? t('login.dueToday') : t('login.dueSoon', { count: days }));
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_SUBSCRIPTION_EXPIRED') {
        setSecondFactor(null);
        setFailure(expiredMessage(error));
        setExpired(credentials);
      } else if (error instanceof ApiError && error.code === 'ERR_INVALID_TWO_FACTOR_CODE') {
        setCodeError(t('errors.ERR_INVALID_TWO_FACTOR_CODE'));
      } else if (error instanceof ApiError) {
        toastError(error);
      } else {
        setFailure(t('login.serverDown'));
      }
    }
  };

  const submitCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !secondFactor) return;
    const typed = code.replace(/\s+/g, '');
    if (!typed) {
      setCodeError(t('validation.required'));
      return;
    }
    setSubmitting(true);
    try {
      await signInWith({ ...secondFactor, code: typed });
    } finally {
      setSubmitting(false);
    }
  };

  const backToPassword = () => {
    setSecondFactor(null);
    setCode('');
    setCodeError(undefined);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setFailure(null);
    setExpired(null);
    setSubmitting(true);
    try {
      // Rules that could not load (the network failed) leave the check to the server, which answers with the same messages.
      const checked = await checkLogin(values).catch(() => ({ values }));
      if ('errors' in checked) setErrors(checked.errors);
      else await signInWith(checked.values);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: 400 }} elevation={3}>
        {secondFactor ? (
          <Stack component="form" spacing={2} onSubmit={(event: FormEvent<HTMLFormElement>) => void submitCode(event)} noValidate data-testid="login-code-step">
            <Typography variant="h4" component="h1" color="primary" sx={{ textAlign: 'center', fontWeight: 700 }}>
              {t('app.name')}
            </Typography>
            <Typography variant="h6" component="h2" sx={{ textAlign: 'center' }}>
              {t('login.codeTitle')}
            </Typography>
            <LoginField
              label={t('login.code')}
              name="code"
              autoComplete="one-time-code"
              inputMode="text"
              autoFocus
              value={code}
              onChange={(event) => {
                setCode(event.currentTarget.value);
                setCodeError(undefined);
              }}
              error={codeError}
              hint={t('login.codeHint')}
              testId="login-code"
            />
            <Button type="submit" variant="contained" size="large" disabled={submitting} data-testid="login-verify">
              {t('login.verify')}
            </Button>
            <Button onClick={backToPassword} data-testid="login-back">
              {t('login.back')}
            </Button>
          </Stack>
        ) : (
        <Stack component="form" spacing={2} onSubmit={(event: FormEvent<HTMLFormElement>) => void submit(event)} noValidate>
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
          <LoginField
            label={t('login.email')}
            type="email"
            name="email"
            autoComplete="email"
            autoFocus
            value={values.email}
            onChange={edit('email')}
            error={message(errors.email)}
            testId="login-email"
          />
          <LoginField
            label={t('login.password')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={values.password}
            onChange={edit('password')}
            error={message(errors.password)}
            testId="login-password"
          />
          <Button type="submit" variant="contained" size="large" disabled={submitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
          <FormControl size="small" fullWidth>
            <InputLabel variant="outlined" htmlFor="login-language" shrink>
              {t('login.language')}
            </InputLabel>
            <NativeSelect
              value={i18n.language.slice(0, 2)}
              onChange={(event) => changeLanguage(event.target.value as (typeof LANGUAGES)[number])}
              input={<OutlinedInput label={t('login.language')} notched />}
              inputProps={{ id: 'login-language', ...{ 'data-testid': 'login-language' } }}
            >
              {LANGUAGES.map((language) => (
                <option key={language} value={language}>
                  {t(`languages.${language}`)}
                </option>
              ))}
            </NativeSelect>
          </FormControl>
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Link component={RouterLink} to="/forgetpsw" variant="body2">
              {t('login.forgot')}
            </Link>
            <Link component={RouterLink} to="/signup" variant="body2">
              {t('login.signup')}
            </Link>
          </Stack>
        </Stack>
        )}
      </Paper>
    </Box>
  );
}
