import { ChatBody, type PresentedChat } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Autocomplete, Dialog, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { cacheSavedChat } from './chats-queries';

interface Member {
  id: number;
  name: string;
}
/** The shared title rule; members are picked as users (at least one, spec part 2 §5). */
const ChatForm = z.object({
  title: ChatBody.shape.title,
  users: z.array(z.object({ id: z.number(), name: z.string() })).min(1, 'validation.required'),
});
type FormValues = z.infer<typeof ChatForm>;

/** Create a chat, or (its owner) rename it and change its members. Mounted while open, so closing resets it. */
export function ChatDialog({ chat, onClose, onSaved }: { chat: PresentedChat | null; onClose(): void; onSaved(chat: PresentedChat): void }) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: ['users', 'list'], queryFn: () => api.get<Member[]>('/users/list') });
  const options = (users.data ?? []).filter((member) => member.id !== user?.id);
  const form = useForm<FormValues>({
    resolver: zodResolver(ChatForm),
    defaultValues: {
      title: chat?.title ?? '',
      users: (chat?.users ?? []).filter((member) => member.userId !== user?.id).map((member) => ({ id: member.userId, name: member.user.name })),
    },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    const body = { title: values.title, users: values.users.map((member) => ({ id: member.id })) };
    try {
      const saved = chat ? await api.put<PresentedChat>(`/chats/${chat.id}`, body) : await api.post<PresentedChat>('/chats', body);
      cacheSavedChat(queryClient, saved);
      toastSuccess(t('chats.saved'));
      onSaved(saved);
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="xs" data-testid="chat-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{chat ? t('chats.dialog.editTitle') : t('chats.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('chats.dialog.title')}
              {...form.register('title')}
              error={Boolean(errors.title)}
              helperText={errors.title?.message ? t(errors.title.message) : undefined}
              required
              autoFocus
              slotProps={{ htmlInput: { 'data-testid': 'chat-title', maxLength: 100 } }}
            />
            <Controller
              control={form.control}
              name="users"
              render={({ field }) => (
                <Autocomplete
                  multiple
                  options={options}
                  loading={users.isPending}
                  value={field.value}
                  onChange={(_, value) => field.onChange(value)}
                  getOptionLabel={(option) => option.name}
                  isOptionEqualToValue={(option, value) => option.id === value.id}
                  noOptionsText={t('chats.dialog.noUsers')}
                  filterSelectedOptions
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t('chats.dialog.users')}
                      required
                      error={Boolean(errors.users)}
                      helperText={errors.users ? t('chats.dialog.usersHint') : undefined}
                      slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'chat-users' } }}
                    />
                  )}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="chat-save" />
      </form>
    </Dialog>
  );
}
