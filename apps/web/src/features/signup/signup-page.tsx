import { LANGUAGES, type Language, type PresentedPlan } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, CircularProgress, Link, ListItemText, MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { PasswordField } from '../../components/password-field';
import { PublicCard, useAuthOptions } from '../../components/public-auth';
import { toastError, toastSuccess } from '../../components/toast';
import { formatReais } from '../../i18n';
import { limitText } from '../settings/plan-form';
import { maskPhone, phoneDigits, PHONE_MAX_DIGITS } from './phone-mask';
import { serverFieldErrors, SignupForm, type SignupFormInput, type SignupFormValues } from './signup-form';

/** A plan as the public `GET /plans/list` answers it (value in reais). */
type PublicPlan = Pick<PresentedPlan, 'id' | 'name' | 'users' | 'connections' | 'queues' | 'value'>;

function currentLanguage(language: string): Language {
  return LANGUAGES.find((l) => l === language.slice(0, 2)) ?? 'pt';
}

/**
 * Company sign-up (spec part 2 §2.18, §5): name, e-mail, phone with the mask
 * (99) 99999-9999 (digits kept), password, plan. The `companyId` the spec allows
 * in the query string is accepted and ignored. When a super user turned public
 * sign-up off, the page says so instead of offering a form that can only fail.
 */
export default function SignupPage() {
  const { t } = useTranslation();
  const options = useAuthOptions();

  return (
    <PublicCard title={t('signup.title')}>
      {options.isPending ? (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress size={28} aria-label={t('common.loading')} />
        </Box>
      ) : options.isError ? (
        <Alert severity="error">{t('signup.optionsError')}</Alert>
      ) : options.data.signupEnabled ? (
        <SignupFormFields />
      ) : (
        <Alert severity="info" data-testid="signup-disabled">
          {t('signup.disabled')}
        </Alert>
      )}
      <Link component={RouterLink} to="/login" variant="body2" sx={{ textAlign: 'center' }}>
        {t('signup.haveAccount')}
      </Link>
    </PublicCard>
  );
}

function SignupFormFields() {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const navigate = useNavigate();
  const plans = useQuery({ queryKey: ['public-plans'], queryFn: () => api.get<PublicPlan[]>('/plans/list') });
  const form = useForm<SignupFormInput, unknown, SignupFormValues>({
    resolver: zodResolver(SignupForm),
    defaultValues: { name: '', email: '', phone: '', password: '', planId: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? (i18n.exists(key) ? t(key) : key) : undefined);
  // The input itself gets the ref, so a failed submit focuses the first wrong field.
  const field = (name: 'name' | 'email' | 'password') => {
    const { ref, ...rest } = form.register(name);
    return { ...rest, inputRef: ref };
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      await api.post('/companies/cadastro', { ...values, planId: Number(values.planId), language: currentLanguage(i18n.language) });
      toastSuccess(t('signup.success'));
      void navigate('/login');
    } catch (error) {
      const fields = serverFieldErrors(error);
      for (const [name, key] of Object.entries(fields)) form.setError(name as keyof SignupFormInput, { message: key });
      toastError(error);
    }
  });

  const list = plans.data ?? [];
  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="signup-form">
      <TextField
        label={t('signup.name')}
        autoComplete="organization"
        autoFocus
        required
        {...field('name')}
        error={Boolean(errors.name)}
        helperText={message(errors.name?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'signup-name', maxLength: 50 } }}
      />
      <TextField
        label={t('signup.email')}
        type="email"
        autoComplete="email"
        required
        {...field('email')}
        error={Boolean(errors.email)}
        helperText={message(errors.email?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'signup-email' } }}
      />
      <Controller
        control={form.control}
        name="phone"
        render={({ field }) => (
          <TextField
            label={t('signup.phone')}
            type="tel"
            autoComplete="tel-national"
            required
            name={field.name}
            inputRef={field.ref}
            value={maskPhone(field.value)}
            onChange={(event) => field.onChange(phoneDigits(event.target.value))}
            onBlur={field.onBlur}
            placeholder="(99) 99999-9999"
            error={Boolean(errors.phone)}
            helperText={message(errors.phone?.message)}
            // 11 digits plus the mask's "(", ")", " " and "-".
            slotProps={{ htmlInput: { 'data-testid': 'signup-phone', inputMode: 'tel', maxLength: PHONE_MAX_DIGITS + 5 } }}
          />
        )}
      />
      <PasswordField
        label={t('signup.password')}
        autoComplete="new-password"
        required
        {...field('password')}
        error={Boolean(errors.password)}
        helperText={message(errors.password?.message) ?? t('signup.passwordHint')}
        slotProps={{ htmlInput: { 'data-testid': 'signup-password', maxLength: 50 } }}
      />
      <Controller
        control={form.control}
        name="planId"
        render={({ field }) => (
          <TextField
            select
            label={t('signup.plan')}
            required
            name={field.name}
            inputRef={field.ref}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={Boolean(errors.planId) || plans.isError}
            helperText={message(errors.planId?.message) ?? (plans.isError ? t('signup.plansError') : !plans.isPending && list.length === 0 ? t('signup.noPlans') : undefined)}
            disabled={plans.isPending || list.length === 0}
            data-testid="signup-plan"
            slotProps={{ select: { renderValue: (value) => { const plan = list.find((p) => String(p.id) === value); return plan ? t('signup.planOption', { name: plan.name, price: formatReais(plan.value) }) : ''; } } }}
          >
            {list.map((plan) => (
              <MenuItem key={plan.id} value={String(plan.id)} data-testid={`signup-plan-${plan.id}`}>
                <ListItemText
                  primary={t('signup.planOption', { name: plan.name, price: formatReais(plan.value) })}
                  secondary={t('signup.planLimits', { users: limitText(plan.users), connections: limitText(plan.connections), queues: limitText(plan.queues) })}
                />
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="signup-submit">
        {isSubmitting ? t('signup.sending') : t('signup.submit')}
      </Button>
    </Box>
  );
}
