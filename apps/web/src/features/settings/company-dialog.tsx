import { zodResolver } from '@hookform/resolvers/zod';
import EventRepeat from '@mui/icons-material/EventRepeat';
import { Button, Dialog, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { cacheCompany, type Company } from './companies-queries';
import { today } from '../../i18n/dates';
import { companyFormDefaults, CompanyFormSchema, companyPayload, recurrenceChoices, renewDueDate, type CompanyFormOutput, type CompanyFormValues } from './company-form';
import { sortPlans } from './plan-form';
import { usePlans } from './plans-queries';

/**
 * Add or edit a company (super users, spec part 2 §2.15 Companies tab, §3
 * Company): plan, status, campaigns, due date with the renewal button and
 * recurrence; when adding, an optional password creates its first admin.
 * Mounted while open, so closing resets it.
 */
export function CompanyDialog({ company, onClose }: { company: Company | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const plans = usePlans();
  const planList = sortPlans(plans.data ?? []);
  const form = useForm<CompanyFormValues, unknown, CompanyFormOutput>({
    resolver: zodResolver(CompanyFormSchema),
    defaultValues: companyFormDefaults(company),
  });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);

  const submit = form.handleSubmit(async (values) => {
    try {
      const body = companyPayload(values, company);
      const saved = company ? await api.put<Company>(`/companies/${company.id}`, body) : await api.post<Company>('/companies', body);
      cacheCompany(queryClient, saved);
      toastSuccess(t('settings.companies.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  const renew = () => {
    const { dueDate, recurrence } = form.getValues();
    form.setValue('dueDate', renewDueDate(dueDate, recurrence, today()), { shouldDirty: true });
  };

  const text = (name: 'name' | 'email' | 'phone', maxLength: number, extra: { required?: boolean; type?: string } = {}) => (
    <TextField
      label={t(`settings.companies.fields.${name}`)}
      {...form.register(name)}
      error={Boolean(errors[name])}
      helperText={message(errors[name]?.message)}
      fullWidth
      {...extra}
      slotProps={{ htmlInput: { maxLength, 'data-testid': `company-${name}` } }}
    />
  );

  const yesNo = (name: Path<CompanyFormValues> & ('status' | 'campaignsEnabled')) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          label={t(`settings.companies.fields.${name}`)}
          value={field.value ? 'true' : 'false'}
          onChange={(event) => field.onChange(event.target.value === 'true')}
          onBlur={field.onBlur}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': `company-${name}` } }}
        >
          <MenuItem value="true">{t('common.yes')}</MenuItem>
          <MenuItem value="false">{t('common.no')}</MenuItem>
        </TextField>
      )}
    />
  );

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="company-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{company ? t('settings.companies.editTitle') : t('settings.companies.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {text('name', 100, { required: true })}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('email', 254, { type: 'email' })}
              {text('phone', 30)}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                control={form.control}
                name="planId"
                render={({ field }) => (
                  <TextField
                    select
                    required
                    label={t('settings.companies.fields.plan')}
                    value={planList.some((plan) => plan.id === field.value) ? field.value : ''}
                    onChange={(event) => field.onChange(event.target.value === '' ? '' : Number(event.target.value))}
                    onBlur={field.onBlur}
                    error={Boolean(errors.planId)}
                    helperText={message(errors.planId?.message) ?? (plans.isPending ? t('common.loading') : undefined)}
                    fullWidth
                    slotProps={{ htmlInput: { 'data-testid': 'company-planId' } }}
                  >
                    {planList.map((plan) => (
                      <MenuItem key={plan.id} value={plan.id} data-testid={`company-plan-${plan.id}`}>
                        {plan.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              {yesNo('status')}
              {yesNo('campaignsEnabled')}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
              <TextField
                label={t('settings.companies.fields.dueDate')}
                type="date"
                {...form.register('dueDate')}
                error={Boolean(errors.dueDate)}
                helperText={message(errors.dueDate?.message)}
                fullWidth
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'company-dueDate' } }}
              />
              <Controller
                control={form.control}
                name="recurrence"
                render={({ field }) => (
                  <TextField
                    select
                    label={t('settings.companies.fields.recurrence')}
                    value={field.value}
                    onChange={(event) => field.onChange(event.target.value)}
                    onBlur={field.onBlur}
                    fullWidth
                    slotProps={{ htmlInput: { 'data-testid': 'company-recurrence' } }}
                  >
                    {recurrenceChoices(company?.recurrence).map((recurrence) => (
                      <MenuItem key={recurrence} value={recurrence}>
                        {t(`settings.companies.recurrences.${recurrence}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <Tooltip title={t('settings.companies.renewHint')}>
                <Button variant="outlined" startIcon={<EventRepeat />} onClick={renew} sx={{ flexShrink: 0, mt: { sm: 1 } }} data-testid="company-renew">
                  {t('settings.companies.renew')}
                </Button>
              </Tooltip>
            </Stack>
            {company ? null : (
              <TextField
                label={t('settings.companies.fields.password')}
                type="password"
                autoComplete="new-password"
                {...form.register('password')}
                error={Boolean(errors.password)}
                helperText={message(errors.password?.message) ?? t('settings.companies.fields.passwordHint')}
                fullWidth
                slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'company-password' } }}
              />
            )}
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} cancelTestId="company-cancel" saveTestId="company-save" />
      </form>
    </Dialog>
  );
}
