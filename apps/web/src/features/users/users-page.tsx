import type { PresentedUser } from '@atende/shared';
import LockReset from '@mui/icons-material/LockReset';
import { Box, IconButton, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { ItemConfirmationDialog } from '../../components/confirmation-dialog';
import { toastError, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { QueueChip } from './queue-chip';
import { UserModal } from './user-modal';
import { cacheRemovedUser, useUserEvents, useUserPages } from './users-queries';

const NARROW_HIDDEN = { display: { xs: 'none', md: 'table-cell' } } as const;

/** Users page (spec part 1 §2, §7; issue 18): search, the plan's user count, the list with its actions. */
export default function UsersPage() {
  const { t } = useTranslation();
  const { user: me, api } = useSession();
  // A super user resets a user's second factor (two-factor sign-in): asked first.
  const [resetting, setResetting] = useState<PresentedUser | null>(null);
  const resetSecondFactor = (user: PresentedUser) => {
    api.post(`/users/${user.id}/2fa/reset`).then(
      () => toastSuccess(t('twoFactor.resetDone')),
      (error: unknown) => toastError(error),
    );
  };
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useUserPages(searchParam);
  // The company's total, whatever the search: the first page of the unfiltered list (the same cache when not searching).
  const everyone = useUserPages('');
  const modal = useEditDialog<number>();
  const deletion = useDeleteConfirmation<PresentedUser>({
    path: (user) => `/users/${user.id}`,
    onDeleted: (user) => {
      cacheRemovedUser(queryClient, user.id);
      toastSuccess(t('users.deleted'));
    },
    title: (user) => t('users.deleteTitle', { name: user?.name ?? '' }),
    message: t('users.deleteMessage'),
  });
  useUserEvents();

  const users = pages.data?.pages.flatMap((page) => page.users) ?? [];
  const total = everyone.data?.pages[0]?.count;
  // Plan limits: 0 means "no limit" (as the server reads it).
  const limit = me?.company?.plan.users ?? 0;
  const full = limit > 0 && total !== undefined && total >= limit;
  const onScroll = loadMoreOnScroll(pages);
  // The menu shows this page to admins only; anyone else who opens it may edit only itself (the server enforces it).
  const admin = me?.profile === 'admin';

  return (
    <InfiniteListPage>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h5" component="h1">
            {t('users.title')}
          </Typography>
          {total !== undefined ? (
            <Typography variant="body2" color={full ? 'warning.main' : 'text.secondary'} data-testid="users-count">
              {limit > 0 ? t('users.planLimit', { count: total, limit }) : t('users.total', { count: total })}
            </Typography>
          ) : null}
        </Box>
        <SearchField value={search} onChange={setSearch} placeholder={t('users.search')} testId="users-search" minWidth={260} />
        {admin ? (
          <Tooltip title={full ? t('users.limitReached') : ''}>
            {/* A disabled button fires no events: the span carries the tooltip. */}
            <span>
              <AddButton label={t('users.add')} onClick={modal.add} testId="users-add" disabled={full} sx={{ width: { xs: '100%', sm: 'auto' } }} />
            </span>
          </Tooltip>
        ) : null}
      </Stack>

      <ListTable
        onScroll={onScroll}
        label={t('users.title')}
        phoneOffsetPx={260}
        scrollTestId="users-scroll"
        head={
          <>
            <TableCell>{t('users.columns.name')}</TableCell>
            <TableCell sx={NARROW_HIDDEN}>{t('users.columns.email')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('users.columns.profile')}</TableCell>
            <TableCell sx={NARROW_HIDDEN}>{t('users.columns.queues')}</TableCell>
            <TableCell sx={NARROW_HIDDEN}>{t('users.columns.whatsapp')}</TableCell>
            <TableCell align="right">{t('users.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={users.length === 0} emptyText={t('users.empty')} emptyTestId="users-empty" />}
      >
        {users.map((user) => (
          <TableRow key={user.id} hover data-testid="user-row" data-user-id={user.id}>
            <TableCell sx={{ wordBreak: 'break-word' }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Box
                  role="img"
                  aria-label={user.online ? t('users.online') : t('users.offline')}
                  title={user.online ? t('users.online') : t('users.offline')}
                  data-testid="user-online"
                  data-online={user.online}
                  sx={{ width: 10, height: 10, borderRadius: '50%', flexShrink: 0, bgcolor: user.online ? 'success.main' : 'action.disabled' }}
                />
                <span>
                  {user.name}
                  {user.id === me?.id ? (
                    <Typography component="span" variant="caption" color="text.secondary">
                      {` (${t('users.you')})`}
                    </Typography>
                  ) : null}
                </span>
              </Stack>
              {/* Narrow screens: email and queues go under the name instead of their own columns. */}
              <Box sx={{ display: { xs: 'block', md: 'none' }, mt: 0.5 }}>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block', wordBreak: 'break-all' }}>
                  {user.email}
                </Typography>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
                  {user.queues.map((queue) => (
                    <QueueChip key={queue.id} queue={queue} />
                  ))}
                </Box>
              </Box>
            </TableCell>
            <TableCell sx={{ ...NARROW_HIDDEN, wordBreak: 'break-all' }}>{user.email}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }} data-testid="user-profile-cell">
              {t(`userModal.profiles.${user.profile}`)}
            </TableCell>
            <TableCell sx={NARROW_HIDDEN} data-testid="user-queues-cell">
              {user.queues.length > 0 ? (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {user.queues.map((queue) => (
                    <QueueChip key={queue.id} queue={queue} />
                  ))}
                </Box>
              ) : (
                <Typography variant="caption" color="text.secondary">
                  {t('users.noQueues')}
                </Typography>
              )}
            </TableCell>
            <TableCell sx={NARROW_HIDDEN}>{user.whatsapp?.name ?? '—'}</TableCell>
            <RowActionsCell
              testIdPrefix="user"
              onEdit={admin || user.id === me?.id ? () => modal.edit(user.id) : undefined}
              onDelete={admin && user.id !== me?.id ? () => deletion.ask(user) : undefined}
            >
              {me?.super ? (
                <Tooltip title={t('twoFactor.reset')}>
                  <IconButton size="small" aria-label={t('twoFactor.reset')} onClick={() => setResetting(user)} data-testid="user-2fa-reset">
                    <LockReset fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : null}
            </RowActionsCell>
          </TableRow>
        ))}
      </ListTable>

      <UserModal open={modal.open} userId={modal.record} onClose={modal.close} />
      {deletion.dialog}
      <ItemConfirmationDialog item={resetting} title={t('twoFactor.resetTitle', { name: resetting?.name ?? '' })} onConfirm={resetSecondFactor} onClose={() => setResetting(null)}>
        {t('twoFactor.resetMessage')}
      </ItemConfirmationDialog>
    </InfiniteListPage>
  );
}
