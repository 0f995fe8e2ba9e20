import { email as emailSchema, LANGUAGES, PASSWORD_RESET_CODE_LENGTH, ResetPasswordBody, type Language } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, CircularProgress, Link, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { useSession } from '../../api/session';
import { PasswordField } from '../../components/password-field';
import { PublicCard, useAuthOptions } from '../../components/public-auth';
import { toastError, toastInfo, toastSuccess } from '../../components/toast';

const EmailForm = z.object({ email: emailSchema() });
type EmailFormValues = z.infer<typeof EmailForm>;

/** Step 2 (spec part 2 §5): the shared body's rules, and a confirmation equal to the new password, else nothing is sent. */
const CodeForm = ResetPasswordBody.omit({ email: true })
  .extend({ confirmPassword: z.string().min(1, 'validation.required') })
  .refine((values) => values.confirmPassword === values.newPassword, { path: ['confirmPassword'], message: 'passwordReset.mismatch' });
type CodeFormValues = z.infer<typeof CodeForm>;

function currentLanguage(language: string): Language {
  return LANGUAGES.find((l) => l === language.slice(0, 2)) ?? 'pt';
}

/**
 * Password reset in two steps (spec part 2 §2.19, §4): the e-mail, then the code
 * that was e-mailed with the new password. The code and the password go in the
 * body of `POST /auth/reset-password`, never in a URL. Without e-mail on the
 * server no code can arrive, so the page says to ask an administrator instead.
 */
export default function PasswordResetPage() {
  const { t } = useTranslation();
  const options = useAuthOptions();
  const [email, setEmail] = useState<string | null>(null);

  return (
    <PublicCard title={t('passwordReset.title')}>
      {options.isPending ? (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress size={28} aria-label={t('common.loading')} />
        </Box>
      ) : options.isError ? (
        <Alert severity="error">{t('passwordReset.optionsError')}</Alert>
      ) : !options.data.mailEnabled ? (
        <Alert severity="info" data-testid="reset-mail-disabled">
          {t('passwordReset.mailDisabled')}
        </Alert>
      ) : email === null ? (
        <EmailStep onSent={setEmail} />
      ) : (
        <CodeStep email={email} onBack={() => setEmail(null)} />
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Link component={RouterLink} to="/login" variant="body2">
          {t('passwordReset.login')}
        </Link>
        <Link component={RouterLink} to="/signup" variant="body2">
          {t('passwordReset.signup')}
        </Link>
      </Stack>
    </PublicCard>
  );
}

function useFieldMessage() {
  const { t, i18n } = useTranslation();
  return (key?: string) => (key ? (i18n.exists(key) ? t(key) : key) : undefined);
}

function EmailStep({ onSent }: { onSent(email: string): void }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const message = useFieldMessage();
  const form = useForm<EmailFormValues>({ resolver: zodResolver(EmailForm), defaultValues: { email: '' } });
  const { ref, ...emailField } = form.register('email');
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    try {
      const answer = await api.post<{ status?: number }>(`/forgetpassword/${encodeURIComponent(email)}?language=${currentLanguage(i18n.language)}`);
      // Only when a super user turned it on does the server reveal an unknown e-mail (spec part 2 §7).
      if (answer?.status === 404) {
        toastError(new Error(t('passwordReset.emailNotFound')));
        return;
      }
      toastInfo(t('passwordReset.emailSent'));
      onSent(email);
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography variant="body2" color="text.secondary">
        {t('passwordReset.emailStep')}
      </Typography>
      <TextField
        label={t('passwordReset.email')}
        type="email"
        autoComplete="email"
        autoFocus
        required
        {...emailField}
        inputRef={ref}
        error={Boolean(errors.email)}
        helperText={message(errors.email?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'reset-email' } }}
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="reset-send">
        {isSubmitting ? t('passwordReset.sending') : t('passwordReset.send')}
      </Button>
    </Stack>
  );
}

function CodeStep({ email, onBack }: { email: string; onBack(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const navigate = useNavigate();
  const message = useFieldMessage();
  const form = useForm<CodeFormValues>({ resolver: zodResolver(CodeForm), defaultValues: { token: '', newPassword: '', confirmPassword: '' } });
  const { errors, isSubmitting } = form.formState;
  const field = (name: keyof CodeFormValues) => {
    const { ref, ...rest } = form.register(name);
    return { ...rest, inputRef: ref };
  };

  const submit = form.handleSubmit(async ({ token, newPassword }) => {
    try {
      await api.post('/auth/reset-password', { email, token, newPassword });
      toastSuccess(t('passwordReset.updated'));
      void navigate('/login');
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
        {t('passwordReset.codeStep', { email })}
      </Typography>
      <TextField
        label={t('passwordReset.code')}
        autoComplete="one-time-code"
        autoFocus
        required
        {...field('token')}
        error={Boolean(errors.token)}
        helperText={message(errors.token?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'reset-code', inputMode: 'numeric', pattern: '[0-9]*', maxLength: PASSWORD_RESET_CODE_LENGTH } }}
      />
      <PasswordField
        label={t('passwordReset.newPassword')}
        autoComplete="new-password"
        required
        {...field('newPassword')}
        error={Boolean(errors.newPassword)}
        helperText={message(errors.newPassword?.message) ?? t('passwordReset.passwordHint')}
        slotProps={{ htmlInput: { 'data-testid': 'reset-password', maxLength: 50 } }}
      />
      <PasswordField
        label={t('passwordReset.confirmPassword')}
        autoComplete="new-password"
        required
        {...field('confirmPassword')}
        error={Boolean(errors.confirmPassword)}
        helperText={message(errors.confirmPassword?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'reset-confirm', maxLength: 50 } }}
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="reset-submit">
        {t('passwordReset.submit')}
      </Button>
      <Button variant="text" size="small" onClick={onBack} data-testid="reset-back">
        {t('passwordReset.otherEmail')}
      </Button>
    </Stack>
  );
}
