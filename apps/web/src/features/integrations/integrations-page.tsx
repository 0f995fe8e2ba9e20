import { TableCell, TableRow } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { SecretDialog } from '../../components/secret-dialog';
import { toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { usePlanGate } from '../../components/use-plan-gate';
import { IntegrationDialog } from './integration-dialog';
import type { Integration } from './integration-form';
import { IntegrationLogo } from './integration-logo';
import { cacheRemovedIntegration, useIntegrationEvents, useIntegrationPages } from './integrations-queries';

/**
 * Integrations page (spec part 2 §2.13): title with count, search, type logo,
 * id and name, infinite scroll, add/edit dialog and delete with confirmation.
 * Without the plan's useIntegrations the company is told so and sent to /.
 */
export default function IntegrationsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const allowed = usePlanGate('useIntegrations');
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useIntegrationPages(searchParam, allowed);
  const dialog = useEditDialog<Integration>();
  const deletion = useDeleteConfirmation<Integration>({
    path: (integration) => `/queueIntegration/${integration.id}`,
    onDeleted: (integration) => {
      cacheRemovedIntegration(queryClient, integration.id);
      toastSuccess(t('integrations.deleted'));
    },
    title: (integration) => t('integrations.deleteTitle', { name: integration?.name ?? '' }),
    message: t('integrations.deleteMessage'),
  });
  const [secret, setSecret] = useState<string | null>(null);
  useIntegrationEvents();

  if (!allowed) return null;

  const records = pages.data?.pages.flatMap((page) => page.queueIntegrations) ?? [];
  const count = pages.data?.pages[0]?.count ?? 0;
  const onScroll = loadMoreOnScroll(pages);

  return (
    <InfiniteListPage>
      <ListPageHeader title={`${t('integrations.title')} (${count})`} titleTestId="integrations-title">
        <SearchField value={search} onChange={setSearch} placeholder={t('integrations.search')} testId="integration-search" />
        <AddButton label={t('integrations.add')} onClick={dialog.add} testId="integration-add" />
      </ListPageHeader>

      <ListTable
        onScroll={onScroll}
        label={t('integrations.title')}
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
            <RowActionsCell testIdPrefix="integration" onEdit={() => dialog.edit(integration)} onDelete={() => deletion.ask(integration)} />
          </TableRow>
        ))}
      </ListTable>

      {dialog.open ? <IntegrationDialog integration={dialog.record} onClose={dialog.close} onSecret={setSecret} /> : null}
      {secret ? <SecretDialog secret={secret} texts="integrations.secret" testId="integration-secret" onClose={() => setSecret(null)} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
