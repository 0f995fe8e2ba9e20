import { hasDueDate, type InvoiceView } from '@atende/shared';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { Alert, IconButton, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { alpha, type Theme } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { AddButton, ListTable } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { TableStatus } from '../../components/table-status';
import { toastError, toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { formatDate, formatReais } from '../../i18n';
import { uncacheCompany, useCompanies, type Company } from './companies-queries';
import { CompanyDialog } from './company-dialog';
import { dueColour, type DueColour } from './company-form';

/** Background of a row by how close its due date is; tinted so the text stays readable in both themes. */
const ROW_TINT: Record<DueColour, (theme: Theme) => string> = {
  yellow: (theme) => alpha('#fdd835', theme.palette.mode === 'dark' ? 0.25 : 0.35),
  orange: (theme) => alpha(theme.palette.warning.main, 0.3),
  red: (theme) => alpha(theme.palette.error.main, theme.palette.mode === 'dark' ? 0.3 : 0.25),
};

/** The Companies tab (super users, spec part 2 §2.15): every company, rows coloured by due date; add, edit (with renewal), issue the current invoice now, delete. */
export function CompaniesTab() {
  const { t } = useTranslation();
  const { user, api } = useSession();
  const queryClient = useQueryClient();
  const companies = useCompanies();
  const dialog = useEditDialog<Company>();
  const deletion = useDeleteConfirmation<Company>({
    path: (company) => `/companies/${company.id}`,
    onDeleted: (company) => {
      uncacheCompany(queryClient, company.id);
      toastSuccess(t('settings.companies.deleted'));
    },
    title: (company) => t('settings.companies.deleteTitle', { name: company?.name ?? '' }),
    message: t('settings.companies.deleteMessage'),
  });
  // Issues the company's current invoice now (the hourly job would make the same one later).
  const issueInvoice = async (company: Company) => {
    try {
      const invoice = await api.post<InvoiceView>(`/companies/${company.id}/invoices`);
      toastSuccess(t('settings.companies.invoiceIssued', { name: company.name, value: formatReais(invoice.value), date: formatDate(invoice.dueDate) }));
    } catch (error) {
      toastError(error);
    }
  };
  const list = companies.data ?? [];
  const now = new Date();
  const yesNo = (value: boolean) => (value ? t('common.yes') : t('common.no'));

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="caption" color="text.secondary" sx={{ flexGrow: 1 }}>
          {t('settings.companies.colourLegend')}
        </Typography>
        <AddButton
          label={t('settings.companies.add')}
          onClick={dialog.add}
          sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          testId="company-add"
        />
      </Stack>
      {companies.isError ? <Alert severity="error">{t('settings.companies.loadError')}</Alert> : null}
      <ListTable
        head={
          <>
            <TableCell>{t('settings.companies.columns.name')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('settings.companies.columns.email')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('settings.companies.columns.phone')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('settings.companies.columns.plan')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('settings.companies.columns.status')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('settings.companies.columns.campaigns')}</TableCell>
            <TableCell>{t('settings.companies.columns.dueDate')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('settings.companies.columns.recurrence')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('settings.companies.columns.createdAt')}</TableCell>
            <TableCell align="right">{t('settings.companies.columns.actions')}</TableCell>
          </>
        }
        footer={<TableStatus loading={companies.isPending} failed={companies.isError} empty={list.length === 0} emptyText={t('settings.companies.empty')} />}
      >
        {list.map((company) => {
          const colour = dueColour(company.dueDate, now);
          return (
            <TableRow
              key={company.id}
              hover
              data-testid="company-row"
              data-company-id={company.id}
              data-company-name={company.name}
              data-due-colour={colour ?? ''}
              sx={colour ? { bgcolor: ROW_TINT[colour] } : undefined}
            >
              <TableCell sx={{ fontWeight: 500, wordBreak: 'break-word' }}>{company.name}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-all' }}>{company.email}</TableCell>
              <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{company.phone}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{company.plan.name}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{yesNo(company.status)}</TableCell>
              <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{yesNo(company.campaignsEnabled)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="company-due-date">
                {hasDueDate(company.dueDate) ? formatDate(company.dueDate) : '—'}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t(`settings.companies.recurrences.${company.recurrence}`, { defaultValue: company.recurrence })}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, whiteSpace: 'nowrap' }}>{formatDate(company.createdAt)}</TableCell>
              <RowActionsCell
                testIdPrefix="company"
                onEdit={() => dialog.edit(company)}
                // Nobody deletes the company they are signed in to (the server refuses it too, as it refuses the main company).
                onDelete={company.id === user?.companyId ? undefined : () => deletion.ask(company)}
              >
                {company.plan.value > 0 && hasDueDate(company.dueDate) ? (
                  <Tooltip title={t('settings.companies.issueInvoice')}>
                    <IconButton size="small" aria-label={t('settings.companies.issueInvoice')} onClick={() => void issueInvoice(company)} data-testid="company-issue-invoice">
                      <ReceiptLongOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : null}
              </RowActionsCell>
            </TableRow>
          );
        })}
      </ListTable>

      {dialog.open ? <CompanyDialog company={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </Stack>
  );
}
