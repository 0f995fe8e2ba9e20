import { PLAN_FEATURES, PLAN_LIMITS, PlanBody } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Dialog, DialogContent, DialogTitle, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { companiesKey } from './companies-queries';
import { planFormDefaults, sortPlans, type PlanFormValues } from './plan-form';
import { plansKey, type Plan } from './plans-queries';

/** Add or edit a plan (spec part 2 §2.15 Plans tab, §3 Plan). Mounted while open, so closing resets it. */
export function PlanDialog({ plan, onClose }: { plan: Plan | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<PlanFormValues, unknown, z.output<typeof PlanBody>>({ resolver: zodResolver(PlanBody), defaultValues: planFormDefaults(plan) });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = plan ? await api.put<Plan>(`/plans/${plan.id}`, values) : await api.post<Plan>('/plans', values);
      queryClient.setQueryData<Plan[]>(plansKey, (list) => (list ? sortPlans([...list.filter((p) => p.id !== saved.id), saved]) : list));
      // Companies show their plan's name and limits.
      if (plan) void queryClient.invalidateQueries({ queryKey: companiesKey });
      toastSuccess(t('settings.plans.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="plan-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{plan ? t('settings.plans.editTitle') : t('settings.plans.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('settings.plans.fields.name')}
              {...form.register('name')}
              error={Boolean(errors.name)}
              helperText={message(errors.name?.message)}
              required
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'plan-name' } }}
            />
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, minmax(0, 1fr))' } }}>
              {PLAN_LIMITS.map((limit) => (
                <TextField
                  key={limit}
                  label={t(`settings.plans.fields.${limit}`)}
                  type="number"
                  {...form.register(limit)}
                  error={Boolean(errors[limit])}
                  helperText={message(errors[limit]?.message) ?? t('settings.plans.noLimitHint')}
                  slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': `plan-${limit}` } }}
                />
              ))}
              <TextField
                label={t('settings.plans.fields.value')}
                {...form.register('value')}
                error={Boolean(errors.value)}
                helperText={message(errors.value?.message) ?? t('settings.plans.valueHint')}
                slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'plan-value' } }}
              />
            </Box>
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              {PLAN_FEATURES.map((feature) => (
                <Controller
                  key={feature}
                  control={form.control}
                  name={feature}
                  render={({ field }) => (
                    <FormControlLabel
                      control={<Switch checked={Boolean(field.value)} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { 'data-testid': `plan-${feature}` } as object }} />}
                      label={t(`settings.plans.features.${feature}`)}
                    />
                  )}
                />
              ))}
            </Box>
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} cancelTestId="plan-cancel" saveTestId="plan-save" />
      </form>
    </Dialog>
  );
}
