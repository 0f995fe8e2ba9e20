import type { PresentedCampaign } from '@atende/shared';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import PauseCircleOutlined from '@mui/icons-material/PauseCircleOutlined';
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import { IconButton, TableCell, TableRow } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../api/session';
import { formatDateTime } from '../../i18n';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { usePlanGate } from '../../components/use-plan-gate';
import { CampaignDialog } from './campaign-dialog';
import { CampaignStatusChip } from './campaign-status';
import { cacheRemovedCampaign, cacheSavedCampaign, useCampaignEvents, useCampaignPages } from './campaigns-queries';

/** Campaigns page (spec part 2 §2.7): search; name, status, list, connection, times; stop, restart, report, edit, delete; live. */
export default function CampaignsPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const allowed = usePlanGate('useCampaigns');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useCampaignPages(searchParam, allowed);
  const dialog = useEditDialog<PresentedCampaign>();
  const deletion = useDeleteConfirmation<PresentedCampaign>({
    path: (campaign) => `/campaigns/${campaign.id}`,
    onDeleted: (campaign) => {
      cacheRemovedCampaign(queryClient, campaign.id);
      toastSuccess(t('campaigns.deleted'));
    },
    title: (campaign) => t('campaigns.deleteTitle', { name: campaign?.name ?? '' }),
    message: t('campaigns.deleteMessage'),
  });
  useCampaignEvents();
  if (!allowed) return null;
  const campaigns = pages.data?.pages.flatMap((page) => page.records) ?? [];

  const act = async (campaign: PresentedCampaign, action: 'cancel' | 'restart') => {
    try {
      cacheSavedCampaign(queryClient, await api.post<PresentedCampaign>(`/campaigns/${campaign.id}/${action}`));
      toastSuccess(t(action === 'cancel' ? 'campaigns.cancelled' : 'campaigns.restarted'));
    } catch (error) {
      toastError(error);
    }
  };
  const when = (iso: string | null) => (iso ? formatDateTime(iso) : t('campaigns.none'));

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('campaigns.title')}>
        <SearchField value={search} onChange={setSearch} placeholder={t('campaigns.search')} testId="campaign-search" />
        <AddButton label={t('campaigns.add')} onClick={dialog.add} testId="campaign-add" />
      </ListPageHeader>
      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('campaigns.title')}
        head={
          <>
            <TableCell>{t('campaigns.columns.name')}</TableCell>
            <TableCell>{t('campaigns.columns.status')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('campaigns.columns.contactList')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('campaigns.columns.whatsapp')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('campaigns.columns.scheduledAt')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('campaigns.columns.completedAt')}</TableCell>
            <TableCell align="right">{t('campaigns.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={campaigns.length === 0} emptyText={t('campaigns.empty')} emptyTestId="campaigns-empty" />}
      >
        {campaigns.map((campaign) => (
          <TableRow key={campaign.id} hover data-testid="campaign-row" data-campaign-name={campaign.name}>
            <TableCell sx={{ maxWidth: { xs: 110, sm: 'none' }, overflowWrap: 'anywhere' }}>{campaign.name}</TableCell>
            <TableCell>
              <CampaignStatusChip status={campaign.status} />
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{campaign.contactList?.name ?? t('campaigns.none')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{campaign.whatsapp?.name ?? t('campaigns.none')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{when(campaign.scheduledAt)}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{when(campaign.completedAt)}</TableCell>
            <RowActionsCell testIdPrefix="campaign" onEdit={() => dialog.edit(campaign)} onDelete={() => deletion.ask(campaign)}>
              {campaign.status === 'EM_ANDAMENTO' || campaign.status === 'PROGRAMADA' ? (
                <Tooltip title={t('campaigns.stop')}>
                  <IconButton size="small" onClick={() => void act(campaign, 'cancel')} aria-label={t('campaigns.stop')} data-testid="campaign-stop">
                    <PauseCircleOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : null}
              {campaign.status === 'CANCELADA' ? (
                <Tooltip title={t('campaigns.restart')}>
                  <IconButton size="small" onClick={() => void act(campaign, 'restart')} aria-label={t('campaigns.restart')} data-testid="campaign-restart">
                    <PlayCircleOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : null}
              {campaign.status !== 'INATIVA' ? (
                <Tooltip title={t('campaigns.report')}>
                  <IconButton size="small" component={RouterLink} to={`/campaign/${campaign.id}/report`} aria-label={t('campaigns.report')} data-testid="campaign-report">
                    <AssessmentOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : null}
            </RowActionsCell>
          </TableRow>
        ))}
      </ListTable>
      {dialog.open ? <CampaignDialog campaign={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
