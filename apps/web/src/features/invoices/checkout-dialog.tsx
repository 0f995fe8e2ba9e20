import type { InvoiceView, PaymentEventPayload, PixCheckoutView } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import CheckCircle from '@mui/icons-material/CheckCircle';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';
import { formatDate, formatReais } from '../../i18n';
import { useCompanyEvent } from '../../realtime/socket';
import { ADDRESS_FIELDS, CheckoutAddress, FIRST_STEP, nextStep, previousStep, REQUIRED_ADDRESS_FIELDS, STEP, VISIT_ORDER, type CheckoutStep } from './checkout-form';
import { PixPayment } from './pix-payment';

/** Spec part 2 §9: after the payment is confirmed the user goes to / after 4 seconds. */
const PAID_REDIRECT_MS = 4000;

const STEP_LABEL: Record<CheckoutStep, string> = { [STEP.address]: 'address', [STEP.plan]: 'plan', [STEP.review]: 'review' };

/**
 * Checkout of one invoice (spec part 2 §2.17, §4): plan (the invoice, read-only),
 * address, review; submitting the review creates the Pix charge
 * (`POST /subscription`), whose QR code is then shown until the `payment` event
 * says it was paid: the new due date is shown and the user goes to / 4 s later.
 */
export function CheckoutDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const navigate = useNavigate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [step, setStep] = useState<CheckoutStep>(FIRST_STEP);
  const [charge, setCharge] = useState<PixCheckoutView | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [paidUntil, setPaidUntil] = useState<string | null>(null);
  const form = useForm<CheckoutAddress>({
    resolver: zodResolver(CheckoutAddress),
    defaultValues: { firstName: '', lastName: '', address2: '', city: '', state: '', zipcode: '', country: t('invoices.checkout.defaultCountry') },
  });
  const { errors } = form.formState;
  const message = (key?: string) => (key ? (i18n.exists(key) ? t(key) : key) : undefined);

  useCompanyEvent<PaymentEventPayload>('payment', (payment) => {
    if (payment.action === 'CONCLUIDA' && payment.invoiceId === invoice.id) setPaidUntil(payment.company.dueDate);
  });
  useEffect(() => {
    if (!paidUntil) return;
    const timer = setTimeout(() => void navigate('/'), PAID_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [paidUntil, navigate]);

  const goNext = async () => {
    if (step === STEP.address && !(await form.trigger())) return;
    const next = nextStep(step);
    if (next !== null) setStep(next);
  };
  const goBack = () => {
    const previous = previousStep(step);
    if (previous !== null) setStep(previous);
  };

  const submit = form.handleSubmit(
    async (address) => {
      setSubmitting(true);
      try {
        setCharge(await api.post<PixCheckoutView>('/subscription', { invoiceId: invoice.id, ...address }));
      } catch (error) {
        toastError(error);
      } finally {
        setSubmitting(false);
      }
    },
    // A field the review cannot fix: back to the address.
    () => setStep(STEP.address),
  );

  const activeIndex = paidUntil || charge ? VISIT_ORDER.length : VISIT_ORDER.indexOf(step);
  const values = useWatch({ control: form.control });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="checkout-title" data-testid="checkout-dialog">
      <DialogTitle id="checkout-title">{t('invoices.checkout.title', { id: invoice.id })}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={activeIndex} alternativeLabel sx={{ mb: 3 }} data-testid="checkout-stepper" data-step={charge ? 'pix' : step}>
          {VISIT_ORDER.map((s) => (
            <Step key={s}>
              <StepLabel>{t(`invoices.checkout.steps.${STEP_LABEL[s]}`)}</StepLabel>
            </Step>
          ))}
          <Step>
            <StepLabel>{t('invoices.checkout.steps.pix')}</StepLabel>
          </Step>
        </Stepper>

        {paidUntil ? (
          <Alert icon={<CheckCircle />} severity="success" data-testid="payment-done">
            {t('invoices.pix.paid', { date: formatDate(paidUntil) })}
            <Typography variant="body2">{t('invoices.pix.redirecting')}</Typography>
          </Alert>
        ) : charge ? (
          <PixPayment charge={charge} />
        ) : step === STEP.plan ? (
          <Box data-testid="checkout-step-plan">
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('invoices.checkout.plan.intro')}
            </Typography>
            <InvoiceSummary invoice={invoice} />
          </Box>
        ) : step === STEP.address ? (
          <Box
            component="form"
            id="checkout-address"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void goNext();
            }}
            data-testid="checkout-step-address"
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, pt: 1 }}
          >
            {ADDRESS_FIELDS.map((name, index) => {
              const { ref, ...field } = form.register(name);
              return (
                <TextField
                  key={name}
                  label={t(`invoices.checkout.address.${name}`)}
                  required={REQUIRED_ADDRESS_FIELDS.has(name)}
                  autoFocus={index === 0}
                  {...field}
                  inputRef={ref}
                  error={Boolean(errors[name])}
                  helperText={message(errors[name]?.message)}
                  sx={name === 'address2' ? { gridColumn: { sm: '1 / -1' } } : undefined}
                  slotProps={{ htmlInput: { 'data-testid': `checkout-${name}`, autoComplete: AUTOCOMPLETE[name] } }}
                />
              );
            })}
            {/* Enter in a field goes to the next step. */}
            <button type="submit" hidden aria-hidden tabIndex={-1} />
          </Box>
        ) : (
          <Box data-testid="checkout-step-review">
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('invoices.checkout.review.intro')}
            </Typography>
            <Typography variant="subtitle2">{t('invoices.checkout.review.payer')}</Typography>
            <Typography variant="body2" sx={{ mb: 1, wordBreak: 'break-word' }}>
              {[values.firstName, values.lastName].filter(Boolean).join(' ')}
            </Typography>
            <Typography variant="subtitle2">{t('invoices.checkout.review.address')}</Typography>
            <Typography variant="body2" sx={{ mb: 1, wordBreak: 'break-word' }}>
              {[values.address2, values.city, values.state, values.zipcode, values.country].filter(Boolean).join(', ')}
            </Typography>
            <Typography variant="subtitle2">{t('invoices.checkout.review.invoice')}</Typography>
            <InvoiceSummary invoice={invoice} />
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {charge || paidUntil ? (
          <Button onClick={onClose} data-testid="checkout-close">
            {t('invoices.checkout.close')}
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Box sx={{ flex: 1 }} />
            {previousStep(step) !== null ? (
              <Button onClick={goBack} disabled={submitting} data-testid="checkout-back">
                {t('invoices.checkout.back')}
              </Button>
            ) : null}
            {step === STEP.review ? (
              <Button variant="contained" disabled={submitting} onClick={() => void submit()} data-testid="checkout-submit">
                {submitting ? t('invoices.checkout.submitting') : t('invoices.checkout.submit')}
              </Button>
            ) : (
              <Button variant="contained" onClick={() => void goNext()} data-testid="checkout-next">
                {t('invoices.checkout.next')}
              </Button>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

const AUTOCOMPLETE: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  address2: 'street-address',
  city: 'address-level2',
  state: 'address-level1',
  zipcode: 'postal-code',
  country: 'country-name',
};

/** The invoice as it will be charged: the amount is the server's, never the form's. */
function InvoiceSummary({ invoice }: { invoice: InvoiceView }) {
  const { t } = useTranslation();
  return (
    <Table size="small" data-testid="checkout-invoice">
      <TableBody>
        <TableRow>
          <TableCell component="th" scope="row">
            {t('invoices.checkout.plan.detail')}
          </TableCell>
          <TableCell sx={{ wordBreak: 'break-word' }}>{invoice.detail}</TableCell>
        </TableRow>
        <TableRow>
          <TableCell component="th" scope="row">
            {t('invoices.checkout.plan.value')}
          </TableCell>
          <TableCell data-testid="checkout-invoice-value">{formatReais(invoice.value)}</TableCell>
        </TableRow>
        <TableRow>
          <TableCell component="th" scope="row">
            {t('invoices.checkout.plan.dueDate')}
          </TableCell>
          <TableCell>{formatDate(invoice.dueDate)}</TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}
