import { Stack, TableCell, TableRow } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AddButton, ListPageHeader, ListTable } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { TableStatus } from '../../components/table-status';
import { toastInfo } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { PromptDialog } from './prompt-dialog';
import type { Prompt } from './prompt-form';
import { cachePromptEvent, usePromptEvents, usePrompts } from './prompts-queries';
import { usePlanGate } from '../../components/use-plan-gate';

/**
 * AI prompts page (spec part 2 §2.12): name, queue and max tokens, add/edit
 * dialog, delete with confirmation. Without the plan's useOpenAi the company is
 * told so and sent to / (nothing is requested).
 */
export default function PromptsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const allowed = usePlanGate('useOpenAi');
  const prompts = usePrompts(allowed);
  const dialog = useEditDialog<Prompt>();
  const deletion = useDeleteConfirmation<Prompt>({
    path: (prompt) => `/prompt/${prompt.id}`,
    onDeleted: (prompt) => {
      cachePromptEvent(queryClient, { action: 'delete', promptId: prompt.id });
      // Spec part 2 §7: the delete answers a message shown as an info toast.
      toastInfo(t('prompts.deleted'));
    },
    title: (prompt) => t('prompts.deleteTitle', { name: prompt?.name ?? '' }),
    message: t('prompts.deleteMessage'),
  });
  usePromptEvents();

  if (!allowed) return null;

  const list = prompts.data ?? [];

  return (
    <Stack spacing={2}>
      <ListPageHeader title={t('prompts.title')}>
        <AddButton label={t('prompts.add')} onClick={dialog.add} testId="prompt-add" />
      </ListPageHeader>

      <ListTable
        head={
          <>
            <TableCell>{t('prompts.columns.name')}</TableCell>
            <TableCell>{t('prompts.columns.queue')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('prompts.columns.maxTokens')}</TableCell>
            <TableCell align="right">{t('prompts.columns.actions')}</TableCell>
          </>
        }
        footer={<TableStatus loading={prompts.isPending} failed={prompts.isError} empty={list.length === 0} emptyText={t('prompts.empty')} emptyTestId="prompts-empty" />}
      >
        {list.map((prompt) => (
          <TableRow key={prompt.id} hover data-testid="prompt-row" data-prompt-id={prompt.id}>
            <TableCell sx={{ wordBreak: 'break-word', fontWeight: 500 }}>{prompt.name}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{prompt.queue?.name ?? ''}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{prompt.maxTokens}</TableCell>
            <RowActionsCell testIdPrefix="prompt" onEdit={() => dialog.edit(prompt)} onDelete={() => deletion.ask(prompt)} />
          </TableRow>
        ))}
      </ListTable>

      {dialog.open ? <PromptDialog prompt={dialog.record} onClose={dialog.close} /> : null}
      {deletion.dialog}
    </Stack>
  );
}
