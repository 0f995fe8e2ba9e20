import { TableCell, TableRow } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { ItemConfirmationDialog } from '../../components/confirmation-dialog';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { usePlanGate } from '../../components/use-plan-gate';
import { IntegrationDialog } from './integration-dialog';
import type { Integration } from './integration-form';
import { IntegrationLogo } from './integration-logo';
import { IntegrationSecretDialog } from './integration-secret-dialog';
import { cacheRemovedIntegration, useIntegrationEvents, useIntegrationPages } from './integrations-queries';

type DialogState = { open: false } | { open: true; integration: Integration | null };

/**
 * Integrations page (spec part 2 §2.13): title with count, search, type logo,
 * id and name, infinite scroll, add/edit dialog and delete with confirmation.
 * Without the plan's useIntegrations the company is told so and sent to /.
 */
export default function IntegrationsPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const allowed = usePlanGate('useIntegrations');
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useIntegrationPages(searchParam, allowed);
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  useIntegrationEvents();

  if (!allowed) return null;

  const records = pages.data?.pages.flatMap((page) => page.queueIntegrations) ?? [];
  const count = pages.data?.pages[0]?.count ?? 0;
  const onScroll = loadMoreOnScroll(pages);

  const remove = async (integration: Integration) => {
    try {
      await api.delete(`/queueIntegration/${integration.id}`);
      cacheRemovedIntegration(queryClient, integration.id);
      toastSuccess(t('integrations.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <InfiniteListPage>
      <ListPageHeader title={`${t('integrations.title')} (${count})`} titleTestId="integrations-title">
        <SearchField value={search} onChange={setSearch} placeholder={t('integrations.search')} testId="integration-search" />
        <AddButton label={t('integrations.add')} onClick={() => setDialog({ open: true, integration: null })} testId="integration-add" />
      </ListPageHeader>

      <ListTable
        onScroll={onScroll}
        head={
          <>
            <TableCell sx={{ width: 64 }}>{t('integrations.columns.type')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, width: 80 }}>{t('integrations.columns.id')}</TableCell>
            <TableCell>{t('integrations.columns.name')}</TableCell>
            <TableCell align="right">{t('integrations.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={records.length === 0} emptyText={t('integrations.empty')} emptyTestId="integrations-empty" />}
      >
        {records.map((integration) => (
          <TableRow key={integration.id} hover data-testid="integration-row" data-integration-id={integration.id} data-integration-type={integration.type}>
            <TableCell>
              <IntegrationLogo type={integration.type} />
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{integration.id}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word', fontWeight: 500 }}>{integration.name}</TableCell>
            <RowActionsCell testIdPrefix="integration" onEdit={() => setDialog({ open: true, integration })} onDelete={() => setDeleting(integration)} />
          </TableRow>
        ))}
      </ListTable>

      {dialog.open ? <IntegrationDialog integration={dialog.integration} onClose={() => setDialog({ open: false })} onSecret={setSecret} /> : null}
      {secret ? <IntegrationSecretDialog secret={secret} onClose={() => setSecret(null)} /> : null}
      <ItemConfirmationDialog
        item={deleting}
        title={t('integrations.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={(target) => void remove(target)}
      >
        {t('integrations.deleteMessage')}
      </ItemConfirmationDialog>
    </InfiniteListPage>
  );
}
