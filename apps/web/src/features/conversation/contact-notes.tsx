import { TicketNoteBody, type PresentedTicket, type PresentedTicketNote } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import { Box, Button, CircularProgress, IconButton, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { formatDateTime } from '../../i18n';

/** Note (spec part 1 §5): required, at least 2 characters. */
const NoteForm = TicketNoteBody.pick({ note: true });
type NoteFormValues = z.input<typeof NoteForm>;

/** Internal notes about the contact, written from this ticket. */
export function ContactNotes({ ticket }: { ticket: PresentedTicket }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const key = ['ticket-notes', ticket.id, ticket.contactId];
  const notes = useQuery({
    queryKey: key,
    queryFn: () => api.get<PresentedTicketNote[]>('/ticket-notes/list', { ticketId: ticket.id, contactId: ticket.contactId }),
  });
  const deletion = useDeleteConfirmation<PresentedTicketNote>({
    path: (note) => `/ticket-notes/${note.id}`,
    onDeleted: (note) => {
      toastSuccess(t('conversation.drawer.noteDeleted'));
      queryClient.setQueryData<PresentedTicketNote[]>(key, (current) => current?.filter((n) => n.id !== note.id));
    },
    title: () => t('conversation.drawer.noteDeleteConfirm'),
  });
  const form = useForm<NoteFormValues, unknown, z.output<typeof NoteForm>>({ resolver: zodResolver(NoteForm), defaultValues: { note: '' } });
  const error = form.formState.errors.note?.message;

  const submit = form.handleSubmit(async ({ note }) => {
    try {
      await api.post<PresentedTicketNote>('/ticket-notes', { note, ticketId: ticket.id, contactId: ticket.contactId });
      form.reset({ note: '' });
      toastSuccess(t('conversation.drawer.noteAdded'));
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Box data-testid="contact-notes">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {t('conversation.drawer.notes')}
      </Typography>
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={1}>
          <TextField
            {...form.register('note')}
            placeholder={t('conversation.drawer.notePlaceholder')}
            multiline
            minRows={2}
            maxRows={6}
            size="small"
            error={Boolean(error)}
            helperText={error ? t(error) : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'note-input', 'aria-label': t('conversation.drawer.notePlaceholder') } }}
          />
          <Button type="submit" variant="contained" size="small" disabled={form.formState.isSubmitting} data-testid="note-submit" sx={{ alignSelf: 'flex-end' }}>
            {t('common.save')}
          </Button>
        </Stack>
      </Box>
      {notes.isLoading ? <CircularProgress size={20} sx={{ mt: 1 }} /> : null}
      {notes.data && notes.data.length === 0 ? (
        <Typography color="text.secondary" variant="body2" sx={{ mt: 1 }}>
          {t('conversation.drawer.noNotes')}
        </Typography>
      ) : null}
      <List dense>
        {(notes.data ?? []).map((note) => (
          <ListItem
            key={note.id}
            divider
            data-testid="note-item"
            secondaryAction={
              <IconButton edge="end" aria-label={t('conversation.drawer.deleteNote')} onClick={() => deletion.ask(note)} data-testid="note-delete">
                <DeleteOutline />
              </IconButton>
            }
          >
            <ListItemText
              primary={note.note}
              secondary={`${note.user?.name ?? ''} · ${formatDateTime(note.createdAt)}`}
              slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } } }}
            />
          </ListItem>
        ))}
      </List>
      {deletion.dialog}
    </Box>
  );
}
