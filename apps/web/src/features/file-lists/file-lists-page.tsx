import type { PresentedFileList } from '@atende/shared';
import { TableCell, TableRow } from '@mui/material';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { useCompanyEvent } from '../../realtime/socket';
import { FileListDialog } from './file-list-dialog';

interface FileListPage {
  files: PresentedFileList[];
  hasMore: boolean;
}

/** File lists page (spec part 2 §2.11): title with count, search, add, name and actions, infinite scroll, delete confirmation; live. */
export default function FileListsPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useInfiniteQuery({
    queryKey: ['files', searchParam],
    queryFn: ({ pageParam }) => api.get<FileListPage>('/files', { searchParam, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
  });
  const dialog = useEditDialog<PresentedFileList>();
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['files'] });
  const deletion = useDeleteConfirmation<PresentedFileList>({
    path: (list) => `/files/${list.id}`,
    onDeleted: () => {
      // Spec part 2 §2.11: deleting a file resets the list and reloads.
      reload();
      toastSuccess(t('fileLists.deleted'));
    },
    title: (list) => t('fileLists.deleteTitle', { name: list?.name ?? '' }),
    message: t('fileLists.deleteMessage'),
  });
  useCompanyEvent('file', reload);
  const lists = pages.data?.pages.flatMap((page) => page.files) ?? [];

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('fileLists.title', { count: lists.length })}>
        <SearchField value={search} onChange={setSearch} placeholder={t('fileLists.search')} testId="file-list-search" />
        <AddButton label={t('fileLists.add')} onClick={dialog.add} testId="file-list-add" />
      </ListPageHeader>
      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('fileLists.title', { count: lists.length })}
        head={
          <>
            <TableCell>{t('fileLists.columns.name')}</TableCell>
            <TableCell align="center">{t('fileLists.columns.options')}</TableCell>
            <TableCell align="right">{t('fileLists.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={lists.length === 0} emptyText={t('fileLists.empty')} emptyTestId="file-lists-empty" />}
      >
        {lists.map((list) => (
          <TableRow key={list.id} hover data-testid="file-list-row" data-list-name={list.name}>
            <TableCell sx={{ maxWidth: { xs: 160, sm: 'none' }, overflowWrap: 'anywhere' }}>{list.name}</TableCell>
            <TableCell align="center">{list.options.length}</TableCell>
            <RowActionsCell testIdPrefix="file-list" onEdit={() => dialog.edit(list)} onDelete={() => deletion.ask(list)} />
          </TableRow>
        ))}
      </ListTable>
      {dialog.open ? <FileListDialog fileList={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
