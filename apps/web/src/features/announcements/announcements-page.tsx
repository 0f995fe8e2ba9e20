import type { PresentedAnnouncement } from '@atende/shared';
import { Chip, TableCell, TableRow } from '@mui/material';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { PLAN_REDIRECT_MS } from '../../components/use-plan-gate';
import { AnnouncementDialog } from './announcement-dialog';
import { PRIORITY_CHIP } from './announcement-priority';
import { announcementKeys, useAnnouncementEvent } from './use-unread-announcements';

/** Super users only: anyone else gets the error toast and goes to / after a second (spec part 2 §2.9, §8). */
function useSuperGate(): boolean {
  const { user } = useSession();
  const navigate = useNavigate();
  const allowed = Boolean(user?.super);
  const told = useRef(false);
  useEffect(() => {
    if (!user || allowed) return;
    if (!told.current) {
      told.current = true;
      toastError(new Error(i18next.t('errors.ERR_NO_PERMISSION')));
    }
    const timer = setTimeout(() => void navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [user, allowed, navigate]);
  return allowed;
}

/** Announcements page (spec part 2 §2.9): search, table with title, priority, attachment, status and actions; live. */
export default function AnnouncementsPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const allowed = useSuperGate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useInfiniteQuery({
    queryKey: announcementKeys.page(searchParam),
    queryFn: ({ pageParam }) => api.get<{ records: PresentedAnnouncement[]; hasMore: boolean }>('/announcements', { searchParam, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
    enabled: allowed,
  });
  const dialog = useEditDialog<PresentedAnnouncement>();
  const deletion = useDeleteConfirmation<PresentedAnnouncement>({
    path: (announcement) => `/announcements/${announcement.id}`,
    onDeleted: () => {
      void queryClient.invalidateQueries({ queryKey: announcementKeys.all });
      toastSuccess(t('announcements.deleted'));
    },
    title: (announcement) => t('announcements.deleteTitle', { title: announcement?.title ?? '' }),
    message: t('announcements.deleteMessage'),
  });
  useAnnouncementEvent(() => void queryClient.invalidateQueries({ queryKey: announcementKeys.pages }));
  if (!allowed) return null;
  const announcements = pages.data?.pages.flatMap((page) => page.records) ?? [];

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('announcements.title')}>
        <SearchField value={search} onChange={setSearch} placeholder={t('announcements.search')} testId="announcement-search" />
        <AddButton label={t('announcements.add')} onClick={dialog.add} testId="announcement-add" />
      </ListPageHeader>
      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('announcements.title')}
        head={
          <>
            <TableCell>{t('announcements.columns.title')}</TableCell>
            <TableCell align="center">{t('announcements.columns.priority')}</TableCell>
            <TableCell align="center">{t('announcements.columns.attachment')}</TableCell>
            <TableCell align="center">{t('announcements.columns.status')}</TableCell>
            <TableCell align="right">{t('announcements.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={announcements.length === 0} emptyText={t('announcements.empty')} emptyTestId="announcements-empty" />}
      >
        {announcements.map((announcement) => (
          <TableRow key={announcement.id} hover data-testid="announcement-row" data-announcement-title={announcement.title}>
            <TableCell>{announcement.title}</TableCell>
            <TableCell align="center">
              <Chip size="small" color={PRIORITY_CHIP[announcement.priority]} label={t(`announcements.priority.${announcement.priority}`)} />
            </TableCell>
            <TableCell align="center">{announcement.mediaName ?? t('announcements.noAttachment')}</TableCell>
            <TableCell align="center">{announcement.status ? t('announcements.active') : t('announcements.inactive')}</TableCell>
            <RowActionsCell testIdPrefix="announcement" onEdit={() => dialog.edit(announcement)} onDelete={() => deletion.ask(announcement)} />
          </TableRow>
        ))}
      </ListTable>
      {dialog.open ? <AnnouncementDialog record={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
