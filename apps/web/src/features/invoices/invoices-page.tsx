import type { InvoiceStatus, InvoiceView } from '@atende/shared';
import Pix from '@mui/icons-material/Pix';
import { Alert, Button, Chip, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { formatDate, formatReais } from '../../i18n';
import { CheckoutDialog } from './checkout-dialog';
import { useInvoicePages, useSubscription, usePaymentEvents } from './invoices-queries';

const STATUS_COLOR: Record<InvoiceStatus, 'success' | 'info' | 'error'> = { paid: 'success', open: 'info', expired: 'error' };

/**
 * Invoices page (spec part 2 §2.17): the company's invoices, latest first, with
 * search and infinite scroll; an unpaid one has a Pay button opening the checkout.
 * Admins only (the server answers 403 to anyone else), also while overdue.
 */
/** Phones show value, due date (with the status under it) and Pay; id, detail and the status column from `sm` up. */
const CELL = { px: { xs: 1, sm: 2 } } as const;
const WIDE_ONLY = { ...CELL, display: { xs: 'none', sm: 'table-cell' } } as const;

export default function InvoicesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const isAdmin = user?.profile === 'admin' || Boolean(user?.super);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useInvoicePages(searchParam, isAdmin);
  // Without a configured PSP there is nothing to pay with: say so instead of offering Pay.
  const subscription = useSubscription(isAdmin).data;
  const paymentsEnabled = subscription?.paymentsEnabled !== false;
  const [paying, setPaying] = useState<InvoiceView | null>(null);
  usePaymentEvents();

  if (!isAdmin) {
    return (
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('invoices.title')}
        </Typography>
        <Alert severity="info" data-testid="invoices-admin-only">
          {t('invoices.adminOnly')}
        </Alert>
      </Stack>
    );
  }
  const invoices = pages.data?.pages.flatMap((page) => page.invoices) ?? [];

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('invoices.title')}>
        <SearchField value={search} onChange={setSearch} placeholder={t('invoices.search')} testId="invoice-search" />
      </ListPageHeader>
      {paymentsEnabled ? null : (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="invoices-payments-disabled">
          {t('subscription.paymentsDisabled')}
        </Alert>
      )}
      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('invoices.title')}
        head={
          <>
            <TableCell sx={WIDE_ONLY}>{t('invoices.columns.id')}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t('invoices.columns.detail')}</TableCell>
            <TableCell align="right" sx={CELL}>{t('invoices.columns.value')}</TableCell>
            <TableCell align="center" sx={CELL}>{t('invoices.columns.dueDate')}</TableCell>
            <TableCell align="center" sx={WIDE_ONLY}>{t('invoices.columns.status')}</TableCell>
            <TableCell align="right" sx={CELL}>{t('invoices.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={invoices.length === 0} emptyText={t('invoices.empty')} emptyTestId="invoices-empty" />}
      >
        {invoices.map((invoice) => (
          <TableRow key={invoice.id} hover data-testid="invoice-row" data-invoice-id={invoice.id} data-status={invoice.status}>
            <TableCell sx={WIDE_ONLY}>{invoice.id}</TableCell>
            <TableCell sx={{ ...WIDE_ONLY, wordBreak: 'break-word', minWidth: 160 }}>{invoice.detail}</TableCell>
            <TableCell align="right" sx={{ ...CELL, whiteSpace: 'nowrap' }}>
              {formatReais(invoice.value)}
            </TableCell>
            <TableCell align="center" sx={CELL}>
              {formatDate(invoice.dueDate)}
              {/* On a phone the status sits under the due date (its own column is hidden). */}
              <Chip size="small" sx={{ display: { xs: 'flex', sm: 'none' }, mt: 0.5, mx: 'auto', width: 'fit-content' }} color={STATUS_COLOR[invoice.status]} label={t(`invoices.status.${invoice.status}`)} />
            </TableCell>
            <TableCell align="center" sx={WIDE_ONLY}>
              <Chip size="small" color={STATUS_COLOR[invoice.status]} label={t(`invoices.status.${invoice.status}`)} data-testid={`invoice-status-${invoice.id}`} />
            </TableCell>
            <TableCell align="right" sx={CELL}>
              {invoice.status === 'paid' || !paymentsEnabled ? null : (
                <Button
                  size="small"
                  variant="contained"
                  startIcon={<Pix />}
                  onClick={() => setPaying(invoice)}
                  aria-label={t('invoices.payInvoice', { id: invoice.id })}
                  data-testid={`invoice-pay-${invoice.id}`}
                >
                  {t('invoices.pay')}
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      {paying ? <CheckoutDialog invoice={paying} methods={subscription?.paymentMethods?.length ? subscription.paymentMethods : ['PIX']} onClose={() => setPaying(null)} /> : null}
    </InfiniteListPage>
  );
}
