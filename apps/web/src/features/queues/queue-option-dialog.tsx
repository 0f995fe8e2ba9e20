import { QueueOptionBody } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Dialog, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useUnknownVariables, useVariableInsertion, VariableChips } from '../../components/variable-chips';
import { insertOption, nextOptionNumber, replaceOption, siblingsOf, type QueueOption } from './option-tree';
import { queueOptionsKey } from './queues-queries';

const OptionFields = QueueOptionBody.pick({ option: true, title: true, message: true });
type FormInput = z.input<typeof OptionFields>;
type FormOutput = z.output<typeof OptionFields>;

export type OptionEditing = { mode: 'add'; parent: QueueOption | null } | { mode: 'edit'; node: QueueOption };

/**
 * One option of the chatbot tree: the number the customer types, its title (shown
 * in the menu) and the message sent when it is chosen. A new option proposes the
 * next free number of its level. Mounted while open, so closing resets it.
 */
export function QueueOptionDialog({ queueId, tree, editing, onClose }: { queueId: number; tree: QueueOption[]; editing: OptionEditing; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const node = editing.mode === 'edit' ? editing.node : null;
  const parent = editing.mode === 'add' ? editing.parent : null;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(OptionFields),
    defaultValues: {
      option: node?.option ?? nextOptionNumber(siblingsOf(tree, parent?.id ?? null)),
      title: node?.title ?? '',
      message: node?.message ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);
  const variables = useVariableInsertion('message');
  const unknownVariables = useUnknownVariables();
  const unknown = unknownVariables(useWatch({ control: form.control, name: 'message' }));

  const submit = form.handleSubmit(async (values) => {
    if (unknownVariables(values.message)) return;
    try {
      if (node) {
        const saved = await api.put<QueueOption>(`/queue-options/${node.id}`, values);
        queryClient.setQueryData<QueueOption[]>(queueOptionsKey(queueId), (current) => replaceOption(current ?? [], saved));
      } else {
        const saved = await api.post<QueueOption>('/queue-options', { ...values, queueId, parentId: parent?.id ?? null });
        queryClient.setQueryData<QueueOption[]>(queueOptionsKey(queueId), (current) => insertOption(current ?? [], saved));
      }
      toastSuccess(t('queues.options.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  const title = node ? t('queues.options.dialog.editTitle') : parent ? t('queues.options.dialog.addChildTitle', { parent: parent.title }) : t('queues.options.dialog.addTitle');

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="queue-option-dialog">
      {/* React carries a submit through the portal to the queue form around this dialog: stop it here. */}
      <form
        onSubmit={(event) => {
          event.stopPropagation();
          void submit(event);
        }}
        noValidate
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('queues.options.dialog.option')}
                {...form.register('option')}
                error={Boolean(errors.option)}
                helperText={message(errors.option?.message) ?? t('queues.options.dialog.optionHint')}
                required
                sx={{ width: { sm: 180 } }}
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3, 'data-testid': 'queue-option-number' } }}
              />
              <TextField
                label={t('queues.options.dialog.title')}
                {...form.register('title')}
                error={Boolean(errors.title)}
                helperText={message(errors.title?.message)}
                required
                autoFocus
                fullWidth
                slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'queue-option-title' } }}
              />
            </Stack>
            <TextField
              label={t('queues.options.dialog.message')}
              {...form.register('message')}
              {...variables.target('message')}
              error={Boolean(errors.message) || Boolean(unknown)}
              helperText={message(errors.message?.message) ?? unknown ?? t('queues.options.dialog.messageHint')}
              multiline
              minRows={3}
              maxRows={10}
              slotProps={{ htmlInput: { maxLength: 4096, 'data-testid': 'queue-option-message' } }}
            />
            <VariableChips kind="ticket" onInsert={variables.insert} />
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="queue-option-save" />
      </form>
    </Dialog>
  );
}
