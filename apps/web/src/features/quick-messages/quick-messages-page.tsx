import type { PresentedQuickMessage } from '@atende/shared';
import AttachFile from '@mui/icons-material/AttachFile';
import { Chip, Link, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { QuickMessageDialog } from './quick-message-dialog';
import { useSession } from '../../api/session';
import { cacheRemovedQuickMessage, quickMessageAudience, useQuickMessageEvents, useQuickMessagePages } from './quick-messages-queries';

/** Quick messages page (spec part 2 §2.5): search, table with shortcode, who sees it and attachment, add/edit/delete. */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useQuickMessagePages(searchParam);
  const dialog = useEditDialog<PresentedQuickMessage>();
  const deletion = useDeleteConfirmation<PresentedQuickMessage>({
    path: (record) => `/quick-messages/${record.id}`,
    onDeleted: (record) => {
      cacheRemovedQuickMessage(queryClient, record.id);
      toastSuccess(t('quickMessages.deleted'));
    },
    title: (record) => t('quickMessages.deleteTitle', { shortcode: record?.shortcode ?? '' }),
    message: t('quickMessages.deleteMessage'),
  });
  useQuickMessageEvents();

  const records = pages.data?.pages.flatMap((page) => page.records) ?? [];
  const onScroll = loadMoreOnScroll(pages);

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('quickMessages.title')}>
        <SearchField value={search} onChange={setSearch} placeholder={t('quickMessages.search')} testId="quick-message-search" />
        <AddButton label={t('quickMessages.add')} onClick={dialog.add} testId="quick-message-add" />
      </ListPageHeader>

      <ListTable
        onScroll={onScroll}
        label={t('quickMessages.title')}
        head={
          <>
            <TableCell>{t('quickMessages.columns.shortcode')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('quickMessages.columns.visibility')}</TableCell>
            <TableCell>{t('quickMessages.columns.attachment')}</TableCell>
            <TableCell align="right">{t('quickMessages.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={records.length === 0} emptyText={t('quickMessages.empty')} emptyTestId="quick-messages-empty" />}
      >
        {records.map((record) => (
          <TableRow key={record.id} hover data-testid="quick-message-row" data-quick-message-id={record.id}>
            <TableCell sx={{ wordBreak: 'break-word' }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
                  /{record.shortcode}
                </Typography>
                {/* On a phone the visibility column is hidden: said here instead. */}
                <Chip size="small" label={t(`quickMessages.visibility.${quickMessageAudience(record, user?.id)}`)} sx={{ display: { sm: 'none' } }} />
                {record.status === false ? <Chip size="small" variant="outlined" label={t('quickMessages.inactive')} /> : null}
              </Stack>
              {record.message ? (
                <Typography variant="caption" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                  {record.message}
                </Typography>
              ) : null}
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }} data-testid="quick-message-visibility">
              {t(`quickMessages.visibility.${quickMessageAudience(record, user?.id)}`)}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }}>
              {record.mediaName ? (
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <AttachFile fontSize="small" color="action" />
                  {record.mediaUrl ? (
                    <Link href={record.mediaUrl} target="_blank" rel="noopener noreferrer">
                      {record.mediaName}
                    </Link>
                  ) : (
                    <span>{record.mediaName}</span>
                  )}
                </Stack>
              ) : null}
            </TableCell>
            <RowActionsCell testIdPrefix="quick-message" onEdit={() => dialog.edit(record)} onDelete={() => deletion.ask(record)} />
          </TableRow>
        ))}
      </ListTable>

      {dialog.open ? <QuickMessageDialog record={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
