import type { PresentedTag } from '@atende/shared';
import ViewKanbanOutlined from '@mui/icons-material/ViewKanbanOutlined';
import { Stack, TableCell, TableRow } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { TagChip } from './tag-chip';
import { TagDialog } from './tag-dialog';
import { cacheRemovedTag, useTagEvents, useTagPages } from './tags-queries';

/** Tags page (spec part 2 §2.4): search, the tags as coloured chips with their ticket counts, add/edit/delete, live. */
export default function TagsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useTagPages(searchParam);
  const dialog = useEditDialog<PresentedTag>();
  const deletion = useDeleteConfirmation<PresentedTag>({
    path: (tag) => `/tags/${tag.id}`,
    onDeleted: (tag) => {
      cacheRemovedTag(queryClient, tag.id);
      toastSuccess(t('tags.deleted'));
    },
    title: (tag) => t('tags.deleteTitle', { name: tag?.name ?? '' }),
    message: t('tags.deleteMessage'),
  });
  useTagEvents();

  const tags = pages.data?.pages.flatMap((page) => page.tags) ?? [];

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('tags.title')}>
        <SearchField value={search} onChange={setSearch} placeholder={t('tags.search')} testId="tag-search" />
        <AddButton label={t('tags.add')} onClick={dialog.add} testId="tag-add" />
      </ListPageHeader>

      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('tags.title')}
        head={
          <>
            <TableCell>{t('tags.columns.name')}</TableCell>
            <TableCell align="center">{t('tags.columns.tickets')}</TableCell>
            <TableCell align="right">{t('tags.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={tags.length === 0} emptyText={t('tags.empty')} emptyTestId="tags-empty" />}
      >
        {tags.map((tag) => (
          <TableRow key={tag.id} hover data-testid="tag-row" data-tag-id={tag.id} data-tag-name={tag.name}>
            <TableCell sx={{ maxWidth: { xs: 160, sm: 'none' } }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
                <TagChip name={tag.name} color={tag.color} />
                {tag.kanban === 1 ? (
                  <Tooltip title={t('tags.kanbanLane')}>
                    <ViewKanbanOutlined fontSize="small" color="action" aria-label={t('tags.kanbanLane')} data-testid="tag-kanban-mark" />
                  </Tooltip>
                ) : null}
              </Stack>
            </TableCell>
            <TableCell align="center" data-testid="tag-tickets-count">
              {tag.ticketsCount ?? 0}
            </TableCell>
            <RowActionsCell testIdPrefix="tag" onEdit={() => dialog.edit(tag)} onDelete={() => deletion.ask(tag)} />
          </TableRow>
        ))}
      </ListTable>

      {dialog.open ? <TagDialog tag={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
