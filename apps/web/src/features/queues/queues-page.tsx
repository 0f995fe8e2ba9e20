import { can, type PresentedQueue } from '@atende/shared';
import { Alert, Box, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { AddButton, ListPageHeader, ListTable } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { TableStatus } from '../../components/table-status';
import { toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { useSettingEvents } from '../settings/settings-queries';
import { isCssHexColor } from './queue-colors';
import { QueueModal } from './queue-modal';
import { cacheQueueEvent, useQueueEvents, useQueues } from './queues-queries';

/** Queues page (spec part 2 §2.3): the company's queues, live, with the modal and its option tree editor. */
export default function QueuesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const admin = user ? can(user, 'drawer-admin-items:view') : false;
  const queues = useQueues();
  const modal = useEditDialog<PresentedQueue>();
  const deletion = useDeleteConfirmation<PresentedQueue>({
    path: (queue) => `/queue/${queue.id}`,
    onDeleted: (queue) => {
      cacheQueueEvent(queryClient, { action: 'delete', queueId: queue.id });
      toastSuccess(t('queues.deleted'));
    },
    title: (queue) => t('queues.deleteTitle', { name: queue?.name ?? '' }),
    message: t('queues.deleteMessage'),
  });
  useQueueEvents();
  // The attendance-hours tab follows scheduleType, which another admin may change meanwhile.
  useSettingEvents();

  const list = queues.data ?? [];

  if (!admin) return <Alert severity="warning">{t('queues.adminOnly')}</Alert>;

  return (
    <Stack spacing={2}>
      <ListPageHeader title={t('queues.title')}>
        {/* The proposed colour must avoid the loaded queues' colours: wait for the list. */}
        <AddButton label={t('queues.add')} disabled={queues.isPending} onClick={modal.add} testId="queue-add" />
      </ListPageHeader>

      <ListTable
        head={
          <>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('queues.columns.id')}</TableCell>
            <TableCell>{t('queues.columns.name')}</TableCell>
            <TableCell>{t('queues.columns.color')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('queues.columns.orderQueue')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('queues.columns.greeting')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('queues.autoAssign.column')}</TableCell>
            <TableCell align="right">{t('queues.columns.actions')}</TableCell>
          </>
        }
        footer={<TableStatus loading={queues.isPending} failed={queues.isError} empty={list.length === 0} emptyText={t('queues.empty')} emptyTestId="queues-empty" />}
      >
        {list.map((queue) => (
          <TableRow key={queue.id} hover data-testid="queue-row" data-queue-id={queue.id} data-queue-name={queue.name}>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{queue.id}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word', fontWeight: 500 }}>{queue.name}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Box
                  sx={{ width: 20, height: 20, borderRadius: 1, flexShrink: 0, bgcolor: isCssHexColor(queue.color) ? queue.color : 'transparent', border: 1, borderColor: 'divider' }}
                  aria-hidden
                />
                <Typography variant="caption" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                  {queue.color}
                </Typography>
              </Stack>
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{queue.orderQueue ?? ''}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, maxWidth: 360 }}>
              <Typography variant="body2" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {queue.greetingMessage}
              </Typography>
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }} data-testid="queue-auto-assign-cell">
              {queue.autoAssign === 'off'
                ? t('queues.autoAssign.modes.off')
                : t('queues.autoAssign.columnValue', { mode: t(`queues.autoAssign.modes.${queue.autoAssign}`), capacity: queue.defaultMaxOpenTickets })}
            </TableCell>
            <RowActionsCell testIdPrefix="queue" onEdit={() => modal.edit(queue)} onDelete={() => deletion.ask(queue)} />
          </TableRow>
        ))}
      </ListTable>

      {modal.open ? (
        <QueueModal
          queue={modal.record}
          otherColors={list.filter((queue) => queue.id !== modal.record?.id).map((queue) => queue.color)}
          onClose={modal.close}
        />
      ) : null}
      {deletion.dialog}
    </Stack>
  );
}
