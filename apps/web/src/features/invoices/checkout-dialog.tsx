import type { InvoiceView, PaymentEventPayload, PaymentMethod, PixCheckoutView } from '@atende/shared';
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
  FormControlLabel,
  Radio,
  RadioGroup,
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
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';
import { formatDate, formatReais } from '../../i18n';
import { useCompanyEvent } from '../../realtime/socket';
import type { CARD_FIELDS } from './checkout-form';
import {
  ADDRESS_FIELDS,
  CheckoutForm,
  FIRST_STEP,
  formatCardNumber,
  formatExpiry,
  nextStep,
  previousStep,
  REQUIRED_ADDRESS_FIELDS,
  STEP,
  STEP_FIELDS,
  visitOrder,
  type CheckoutStep,
} from './checkout-form';
import { BoletoPayment, PixPayment } from './pix-payment';

/** Spec part 2 §9: after the payment is confirmed the user goes to / after 4 seconds. */
const PAID_REDIRECT_MS = 4000;

const STEP_LABEL: Record<CheckoutStep, string> = { [STEP.address]: 'address', [STEP.plan]: 'plan', [STEP.review]: 'review', [STEP.payment]: 'payment' };
const METHOD_LABEL: Record<PaymentMethod, string> = { PIX: 'pix', BOLETO: 'boleto', CREDIT_CARD: 'card' };

/**
 * Checkout of one invoice (spec part 2 §2.17, §4): plan (the invoice, read-only),
 * address, the payment method and card (only when the provider has more than Pix:
 * Asaas's Pix, boleto and card), review; submitting the review creates the charge
 * (`POST /subscription`): a Pix QR code or a boleto is then shown until the `payment`
 * event says it was paid, a card is charged at once. Paid: the new due date is shown
 * and the user goes to / 4 s later. Card data goes to the server, which passes it to
 * the provider: nothing of it is kept, here or there.
 */
export function CheckoutDialog({ invoice, methods = ['PIX'], onClose }: { invoice: InvoiceView; methods?: readonly PaymentMethod[]; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const navigate = useNavigate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [step, setStep] = useState<CheckoutStep>(FIRST_STEP);
  const [charge, setCharge] = useState<PixCheckoutView | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [paidUntil, setPaidUntil] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const order = visitOrder(methods);
  // Asaas asks every payer's CPF or CNPJ; a Pix-only PSP (Efí) does not.
  const needsCpfCnpj = methods.length > 1;
  const form = useForm<CheckoutForm>({
    resolver: zodResolver(CheckoutForm),
    defaultValues: {
      firstName: '',
      lastName: '',
      address2: '',
      city: '',
      state: '',
      zipcode: '',
      country: t('invoices.checkout.defaultCountry'),
      cpfCnpj: '',
      needsCpfCnpj,
      method: methods[0] ?? 'PIX',
      nameOnCard: '',
      cardNumber: '',
      expiry: '',
      cvv: '',
      phone: '',
    },
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
    if (step === STEP.address && !(await form.trigger([...STEP_FIELDS.address]))) return;
    if (step === STEP.payment && !(await form.trigger([...STEP_FIELDS.payment]))) return;
    const next = nextStep(order, step);
    if (next !== null) setStep(next);
  };
  const goBack = () => {
    const previous = previousStep(order, step);
    if (previous !== null) setStep(previous);
  };

  const submit = form.handleSubmit(
    async (values) => {
      setSubmitting(true);
      setRefusal(null);
      const { needsCpfCnpj: _asked, method, nameOnCard, cardNumber, expiry, cvv, phone, cpfCnpj, ...address } = values;
      const card = method === 'CREDIT_CARD' ? { nameOnCard, cardNumber, expiry, cvv, phone } : {};
      try {
        const made = await api.post<PixCheckoutView>('/subscription', { invoiceId: invoice.id, ...address, ...(needsCpfCnpj ? { cpfCnpj } : {}), method, ...card });
        // Card data leaves the form as soon as it has been sent.
        form.resetField('cardNumber');
        form.resetField('cvv');
        form.resetField('expiry');
        setCharge(made);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'ERR_PAYMENT_REFUSED') {
          setRefusal(typeof error.data.message === 'string' && error.data.message ? error.data.message : t('errors.ERR_PAYMENT_REFUSED'));
          setStep(STEP.payment);
        } else toastError(error);
      } finally {
        setSubmitting(false);
      }
    },
    // A field the review cannot fix: back to its step.
    (errors) => setStep(Object.keys(errors).some((name) => (STEP_FIELDS.payment as readonly string[]).includes(name)) ? STEP.payment : STEP.address),
  );

  const activeIndex = paidUntil || charge ? order.length : order.indexOf(step);
  const values = useWatch({ control: form.control });
  const lastStep = charge ? METHOD_LABEL[charge.method] : METHOD_LABEL[values.method ?? 'PIX'];
  const field = (name: (typeof CARD_FIELDS)[number] | 'cpfCnpj', options: { format?: (value: string) => string; autoComplete: string; inputMode?: 'numeric' | 'tel' | 'text'; maxLength: number }) => {
    const { ref, onChange, ...rest } = form.register(name);
    return (
      <TextField
        key={name}
        label={t(`invoices.checkout.card.${name}`)}
        required
        {...rest}
        onChange={(event) => {
          if (options.format) event.target.value = options.format(event.target.value);
          void onChange(event);
        }}
        inputRef={ref}
        error={Boolean(errors[name])}
        helperText={message(errors[name]?.message) ?? (name === 'expiry' ? t('invoices.checkout.card.expiryHint') : undefined)}
        sx={name === 'cardNumber' || name === 'nameOnCard' ? { gridColumn: { sm: '1 / -1' } } : undefined}
        slotProps={{ htmlInput: { 'data-testid': `checkout-${name}`, autoComplete: options.autoComplete, inputMode: options.inputMode, maxLength: options.maxLength } }}
      />
    );
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="checkout-title" data-testid="checkout-dialog">
      <DialogTitle id="checkout-title">{t('invoices.checkout.title', { id: invoice.id })}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={activeIndex} alternativeLabel sx={{ mb: 3 }} data-testid="checkout-stepper" data-step={charge ? lastStep : step}>
          {order.map((s) => (
            <Step key={s}>
              <StepLabel>{t(`invoices.checkout.steps.${STEP_LABEL[s]}`)}</StepLabel>
            </Step>
          ))}
          <Step>
            <StepLabel>{t(`invoices.checkout.steps.${lastStep}`)}</StepLabel>
          </Step>
        </Stepper>

        {paidUntil ? (
          <Alert icon={<CheckCircle />} severity="success" data-testid="payment-done">
            {t('invoices.pix.paid', { date: formatDate(paidUntil) })}
            <Typography variant="body2">{t('invoices.pix.redirecting')}</Typography>
          </Alert>
        ) : charge?.paid ? (
          <Alert icon={<CheckCircle />} severity="success" data-testid="payment-approved">
            {t('invoices.card.approved')}
            <Typography variant="body2">{t('invoices.pix.waiting')}</Typography>
          </Alert>
        ) : charge?.method === 'BOLETO' ? (
          <BoletoPayment charge={charge} />
        ) : charge ? (
          <PixPayment charge={charge} />
        ) : step === STEP.payment ? (
          <Box data-testid="checkout-step-payment" sx={{ pt: 1 }}>
            {refusal ? (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="checkout-refused">
                {t('invoices.card.refused')} {refusal}
              </Alert>
            ) : null}
            <RadioGroup
              row
              aria-label={t('invoices.checkout.method.label')}
              value={values.method ?? 'PIX'}
              onChange={(event) => form.setValue('method', event.target.value as PaymentMethod)}
              sx={{ mb: 2 }}
            >
              {methods.map((method) => (
                <FormControlLabel
                  key={method}
                  value={method}
                  control={<Radio slotProps={{ input: { 'data-testid': `checkout-method-${method}` } as object }} />}
                  label={t(`invoices.checkout.method.${METHOD_LABEL[method]}`)}
                />
              ))}
            </RadioGroup>
            {values.method === 'CREDIT_CARD' ? (
              <Box
                component="form"
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  void goNext();
                }}
                data-testid="checkout-card"
                sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
              >
                {field('nameOnCard', { autoComplete: 'cc-name', maxLength: 100 })}
                {field('cardNumber', { format: formatCardNumber, autoComplete: 'cc-number', inputMode: 'numeric', maxLength: 23 })}
                {field('expiry', { format: formatExpiry, autoComplete: 'cc-exp', inputMode: 'numeric', maxLength: 5 })}
                {field('cvv', { format: (value) => value.replace(/\D/g, '').slice(0, 4), autoComplete: 'cc-csc', inputMode: 'numeric', maxLength: 4 })}
                {field('phone', { autoComplete: 'tel', inputMode: 'tel', maxLength: 20 })}
                <Typography variant="caption" color="text.secondary" sx={{ gridColumn: { sm: '1 / -1' } }}>
                  {t('invoices.card.notStored')}
                </Typography>
                <button type="submit" hidden aria-hidden tabIndex={-1} />
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t(`invoices.checkout.method.${METHOD_LABEL[values.method ?? 'PIX']}Intro`)}
              </Typography>
            )}
          </Box>
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
            {needsCpfCnpj ? field('cpfCnpj', { autoComplete: 'off', inputMode: 'numeric', maxLength: 20 }) : null}
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
            {methods.length > 1 ? (
              <>
                <Typography variant="subtitle2">{t('invoices.checkout.review.method')}</Typography>
                <Typography variant="body2" sx={{ mb: 1 }} data-testid="checkout-review-method">
                  {t(`invoices.checkout.method.${METHOD_LABEL[values.method ?? 'PIX']}`)}
                  {values.method === 'CREDIT_CARD' && values.cardNumber ? ` •••• ${values.cardNumber.replace(/\D/g, '').slice(-4)}` : ''}
                </Typography>
              </>
            ) : null}
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
            {previousStep(order, step) !== null ? (
              <Button onClick={goBack} disabled={submitting} data-testid="checkout-back">
                {t('invoices.checkout.back')}
              </Button>
            ) : null}
            {step === STEP.review ? (
              <Button variant="contained" disabled={submitting} onClick={() => void submit()} data-testid="checkout-submit">
                {submitting ? t('invoices.checkout.submitting') : t(`invoices.checkout.submit${values.method === 'CREDIT_CARD' ? 'Card' : values.method === 'BOLETO' ? 'Boleto' : ''}`)}
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
