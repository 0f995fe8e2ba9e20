import type { PresentedContactList } from '@atende/shared';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import { IconButton, TableCell, TableRow } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { usePlanGate } from '../../components/use-plan-gate';
import { CONTACTS_TEMPLATE_URL } from '../contacts/contact-import-dialog';
import { ContactListDialog } from './contact-list-dialogs';
import { cacheRemovedContactList, useContactListEvents, useContactListPages } from './contact-lists-queries';

/** Contact lists page (spec part 2 §2.8): search, name and contacts count, sample spreadsheet, items, edit, delete; live. */
export default function ContactListsPage() {
  const { t } = useTranslation();
  const allowed = usePlanGate('useCampaigns');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useContactListPages(searchParam, allowed);
  const dialog = useEditDialog<PresentedContactList>();
  const deletion = useDeleteConfirmation<PresentedContactList>({
    path: (list) => `/contact-lists/${list.id}`,
    onDeleted: (list) => {
      cacheRemovedContactList(queryClient, list.id);
      toastSuccess(t('contactLists.deleted'));
    },
    title: (list) => t('contactLists.deleteTitle', { name: list?.name ?? '' }),
    message: t('contactLists.deleteMessage'),
  });
  useContactListEvents();
  if (!allowed) return null;
  const lists = pages.data?.pages.flatMap((page) => page.records) ?? [];

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('contactLists.title')}>
        <SearchField value={search} onChange={setSearch} placeholder={t('contactLists.search')} testId="contact-list-search" />
        <AddButton label={t('contactLists.add')} onClick={dialog.add} testId="contact-list-add" />
      </ListPageHeader>
      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('contactLists.title')}
        head={
          <>
            <TableCell>{t('contactLists.columns.name')}</TableCell>
            <TableCell align="center">{t('contactLists.columns.contacts')}</TableCell>
            <TableCell align="right">{t('contactLists.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={lists.length === 0} emptyText={t('contactLists.empty')} emptyTestId="contact-lists-empty" />}
      >
        {lists.map((list) => (
          <TableRow key={list.id} hover data-testid="contact-list-row" data-list-name={list.name}>
            <TableCell sx={{ maxWidth: { xs: 140, sm: 'none' }, overflowWrap: 'anywhere' }}>{list.name}</TableCell>
            <TableCell align="center" data-testid="contact-list-count">
              {list.contactsCount}
            </TableCell>
            <RowActionsCell testIdPrefix="contact-list" onEdit={() => dialog.edit(list)} onDelete={() => deletion.ask(list)}>
              <Tooltip title={t('contactLists.sample')}>
                <IconButton size="small" component="a" href={CONTACTS_TEMPLATE_URL} download="contatos-modelo.xlsx" aria-label={t('contactLists.sample')}>
                  <FileDownloadOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t('contactLists.openItems')}>
                <IconButton size="small" component={RouterLink} to={`/contact-lists/${list.id}/contacts`} aria-label={t('contactLists.openItems')} data-testid="contact-list-open">
                  <PeopleOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
            </RowActionsCell>
          </TableRow>
        ))}
      </ListTable>
      {dialog.open ? <ContactListDialog list={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
