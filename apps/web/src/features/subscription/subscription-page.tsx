import { hasDueDate, type SubscriptionView } from '@atende/shared';
import { Alert, Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../api/session';
import { formatDate, formatReais } from '../../i18n';
import { useSubscription } from '../invoices/invoices-queries';

/**
 * Subscription page (spec part 2 §2.20): read-only trial days left, billing
 * e-mail, plan and due date, and the sign-up button, which opens the invoices
 * to pay. Admins only (`GET /subscription`), also while the company is overdue.
 */
export default function SubscriptionPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const isAdmin = user?.profile === 'admin' || Boolean(user?.super);
  const subscription = useSubscription(isAdmin);

  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }}>
      <Typography variant="h5" component="h1">
        {t('subscription.title')}
      </Typography>
      {!isAdmin ? (
        <Alert severity="info" data-testid="subscription-admin-only">
          {t('subscription.adminOnly')}
        </Alert>
      ) : subscription.isPending ? (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress size={28} aria-label={t('common.loading')} />
        </Box>
      ) : subscription.isError ? (
        <Alert severity="error">{t('subscription.loadError')}</Alert>
      ) : (
        <SubscriptionDetails subscription={subscription.data} />
      )}
    </Stack>
  );
}

function trialText(t: (key: string, options?: Record<string, unknown>) => string, subscription: SubscriptionView): string {
  if (subscription.trialDaysLeft === null) return t('subscription.noTrial');
  if (subscription.trialDaysLeft <= 0) return t('subscription.trialOver');
  return t('subscription.trialDays', { count: subscription.trialDaysLeft });
}

function SubscriptionDetails({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useTranslation();
  const field = (label: string, value: string, testId: string, helperText?: string) => (
    <TextField label={label} value={value} helperText={helperText} fullWidth slotProps={{ htmlInput: { readOnly: true, 'data-testid': testId } }} />
  );
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        {field(
          t('subscription.trial'),
          trialText(t, subscription),
          'trial-days',
          subscription.trialExpiration ? t('subscription.trialUntil', { date: formatDate(subscription.trialExpiration) }) : undefined,
        )}
        {field(t('subscription.email'), subscription.email, 'subscription-email')}
        {field(t('subscription.plan'), `${subscription.plan.name} · ${t('subscription.planPrice', { price: formatReais(subscription.plan.value) })}`, 'subscription-plan')}
        {field(t('subscription.dueDate'), hasDueDate(subscription.dueDate) ? formatDate(subscription.dueDate) : t('subscription.noDueDate'), 'subscription-due-date')}
        {subscription.paymentsEnabled ? null : <Alert severity="warning">{t('subscription.paymentsDisabled')}</Alert>}
        <Box>
          <Button component={RouterLink} to="/financeiro" variant="contained" size="large" data-testid="subscription-subscribe">
            {t('subscription.subscribe')}
          </Button>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('subscription.subscribeHint')}
          </Typography>
        </Box>
      </Stack>
    </Paper>
  );
}
