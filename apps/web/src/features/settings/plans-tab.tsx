import { PLAN_FEATURES, PLAN_LIMITS } from '@atende/shared';
import { Alert, Chip, Stack, TableCell, TableRow } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AddButton, ListTable } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { TableStatus } from '../../components/table-status';
import { toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { PlanDialog } from './plan-dialog';
import { formatReais } from '../../i18n';
import { limitText, sortPlans } from './plan-form';
import { plansKey, usePlans, type Plan } from './plans-queries';

/** The Plans tab (super users, spec part 2 §2.15): the plans with their limits, price and features; add, edit, delete. */
export function PlansTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const plans = usePlans();
  const dialog = useEditDialog<Plan>();
  const deletion = useDeleteConfirmation<Plan>({
    path: (plan) => `/plans/${plan.id}`,
    onDeleted: (plan) => {
      queryClient.setQueryData<Plan[]>(plansKey, (current) => (current ? current.filter((p) => p.id !== plan.id) : current));
      toastSuccess(t('settings.plans.deleted'));
    },
    title: (plan) => t('settings.plans.deleteTitle', { name: plan?.name ?? '' }),
    message: t('settings.plans.deleteMessage'),
  });
  const list = sortPlans(plans.data ?? []);

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <AddButton label={t('settings.plans.add')} onClick={dialog.add} testId="plan-add" />
      </Stack>
      {plans.isError ? <Alert severity="error">{t('settings.plans.loadError')}</Alert> : null}
      <ListTable
        head={
          <>
            <TableCell>{t('settings.plans.columns.name')}</TableCell>
            {PLAN_LIMITS.map((limit) => (
              <TableCell key={limit} align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                {t(`settings.plans.columns.${limit}`)}
              </TableCell>
            ))}
            <TableCell align="right">{t('settings.plans.columns.value')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('settings.plans.columns.features')}</TableCell>
            <TableCell align="right">{t('settings.plans.columns.actions')}</TableCell>
          </>
        }
        footer={<TableStatus loading={plans.isPending} failed={plans.isError} empty={list.length === 0} emptyText={t('settings.plans.empty')} />}
      >
        {list.map((plan) => (
          <TableRow key={plan.id} hover data-testid="plan-row" data-plan-id={plan.id} data-plan-name={plan.name}>
            <TableCell sx={{ fontWeight: 500, wordBreak: 'break-word' }}>{plan.name}</TableCell>
            {PLAN_LIMITS.map((limit) => (
              <TableCell key={limit} align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                {limitText(plan[limit])}
              </TableCell>
            ))}
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {formatReais(plan.value)}
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                {PLAN_FEATURES.filter((feature) => plan[feature]).map((feature) => (
                  <Chip key={feature} size="small" label={t(`settings.plans.features.${feature}`)} />
                ))}
              </Stack>
            </TableCell>
            <RowActionsCell testIdPrefix="plan" onEdit={() => dialog.edit(plan)} onDelete={() => deletion.ask(plan)} />
          </TableRow>
        ))}
      </ListTable>

      {dialog.open ? <PlanDialog plan={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </Stack>
  );
}
