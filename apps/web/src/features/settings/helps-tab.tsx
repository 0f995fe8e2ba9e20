import { Alert, Stack, TableCell, TableRow } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AddButton, ListTable } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { TableStatus } from '../../components/table-status';
import { toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { helpsKey, sortHelps, useHelps, type Help } from '../helps/helps-queries';
import { HelpDialog } from './help-dialog';

/** The Helps tab (super users, spec part 2 §2.15): the help videos with title, code and description; add, edit, delete. */
export function HelpsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const helps = useHelps();
  const dialog = useEditDialog<Help>();
  const deletion = useDeleteConfirmation<Help>({
    path: (help) => `/helps/${help.id}`,
    onDeleted: (help) => {
      queryClient.setQueryData<Help[]>(helpsKey, (current) => (current ? current.filter((h) => h.id !== help.id) : current));
      toastSuccess(t('helps.tab.deleted'));
    },
    title: (help) => t('helps.tab.deleteTitle', { name: help?.title ?? '' }),
    message: t('helps.tab.deleteMessage'),
  });
  const list = sortHelps(helps.data ?? []);

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <AddButton label={t('helps.tab.add')} onClick={dialog.add} testId="help-add" />
      </Stack>
      {helps.isError ? <Alert severity="error">{t('helps.loadError')}</Alert> : null}
      <ListTable
        head={
          <>
            <TableCell>{t('helps.tab.columns.title')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('helps.tab.columns.video')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('helps.tab.columns.description')}</TableCell>
            <TableCell align="right">{t('helps.tab.columns.actions')}</TableCell>
          </>
        }
        footer={<TableStatus loading={helps.isPending} failed={helps.isError} empty={list.length === 0} emptyText={t('helps.empty')} />}
      >
        {list.map((help) => (
          <TableRow key={help.id} hover data-testid="help-row" data-help-id={help.id} data-help-title={help.title}>
            <TableCell sx={{ fontWeight: 500, wordBreak: 'break-word' }}>{help.title}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, fontFamily: 'monospace' }}>{help.video}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-word', color: 'text.secondary' }}>{help.description}</TableCell>
            <RowActionsCell testIdPrefix="help" onEdit={() => dialog.edit(help)} onDelete={() => deletion.ask(help)} />
          </TableRow>
        ))}
      </ListTable>

      {dialog.open ? <HelpDialog help={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </Stack>
  );
}
