import type { PresentedConnection, PresentedContact, PresentedQueueSummary, PresentedTicket } from '@atende/shared';
import { Dialog, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError } from '../../components/toast';
import { connectionsQuery } from '../connections/connections-queries';

interface Choices {
  contact: Pick<PresentedContact, 'id' | 'name'>;
  queues: PresentedQueueSummary[];
  connections: PresentedConnection[];
  queueId: number | '';
  whatsappId: number | '';
}

/**
 * "Start ticket" from the contacts list (spec part 1 §2): the new ticket opens
 * with the user as its attendant. The queue and connection are asked only when
 * there is a choice to make, under the new-ticket dialog's rule: a queue is
 * required unless the user is an admin (spec part 1 §5).
 */
export function useStartTicket(): { start(contact: Pick<PresentedContact, 'id' | 'name'>): Promise<void>; busyContactId: number | null; dialog: ReactNode } {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [choices, setChoices] = useState<Choices | null>(null);
  const [busyContactId, setBusyContactId] = useState<number | null>(null);
  const admin = user?.profile === 'admin';

  const create = async (contactId: number, queueId: number | null, whatsappId: number | null) => {
    setBusyContactId(contactId);
    try {
      const ticket = await api.post<PresentedTicket>('/tickets', { contactId, queueId, whatsappId, userId: user?.id, status: 'open' });
      setChoices(null);
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      void navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      const existing = error instanceof ApiError && error.code === 'ERR_OTHER_OPEN_TICKET' ? (error.data.ticket as PresentedTicket | undefined) : undefined;
      if (existing && existing.userId === user?.id) {
        // The user's own ticket: say so and open it (spec part 1 §8).
        toastError(error);
        setChoices(null);
        void navigate(`/tickets/${existing.uuid}`);
      } else if (existing) {
        // Someone else's ticket: say whose and where (spec part 1 §8).
        const queue = existing.queue?.name;
        const user = existing.user?.name;
        const text = user
          ? queue
            ? t('contacts.startDialog.ownedByOther', { user, queue })
            : t('contacts.startDialog.ownedByOtherNoQueue', { user })
          : queue
            ? t('contacts.startDialog.waiting', { queue })
            : t('contacts.startDialog.waitingNoQueue');
        toastError(new Error(text));
      } else toastError(error);
    } finally {
      setBusyContactId(null);
    }
  };

  const start = async (contact: Pick<PresentedContact, 'id' | 'name'>) => {
    if (!user) return;
    setBusyContactId(contact.id);
    let queues: PresentedQueueSummary[];
    let connections: PresentedConnection[];
    try {
      [queues, connections] = await Promise.all([
        admin ? queryClient.fetchQuery({ queryKey: ['queues'], queryFn: () => api.get<PresentedQueueSummary[]>('/queue') }) : Promise.resolve(user.queues),
        queryClient.fetchQuery(connectionsQuery(api)),
      ]);
    } catch (error) {
      toastError(error);
      setBusyContactId(null);
      return;
    }
    const preferred = connections.find((c) => c.id === user.whatsappId) ?? connections.find((c) => c.isDefault) ?? connections[0];
    const onlyQueue = !admin && queues.length === 1 ? queues[0] : undefined;
    const nothingToChoose = connections.length <= 1 && ((admin && queues.length === 0) || onlyQueue !== undefined);
    if (nothingToChoose) {
      await create(contact.id, onlyQueue?.id ?? null, preferred?.id ?? null);
      return;
    }
    setBusyContactId(null);
    setChoices({ contact, queues, connections, queueId: onlyQueue?.id ?? '', whatsappId: preferred?.id ?? '' });
  };

  const queueMissing = choices !== null && !admin && choices.queueId === '';
  const busy = choices !== null && busyContactId === choices.contact.id;
  const close = () => {
    if (!busy) setChoices(null);
  };

  const dialog = choices ? (
    <Dialog open onClose={close} fullWidth maxWidth="xs" data-testid="start-ticket-dialog">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (queueMissing || busy) return;
          void create(choices.contact.id, choices.queueId === '' ? null : choices.queueId, choices.whatsappId === '' ? null : choices.whatsappId);
        }}
      >
        <DialogTitle>{t('contacts.startDialog.title', { name: choices.contact.name })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {admin && choices.queues.length === 0 ? null : (
              <TextField
                select
                label={t('contacts.startDialog.queue')}
                value={choices.queueId}
                onChange={(event) => setChoices({ ...choices, queueId: event.target.value === '' ? '' : Number(event.target.value) })}
                required={!admin}
                error={queueMissing}
                helperText={!admin && choices.queues.length === 0 ? t('contacts.startDialog.noQueues') : queueMissing ? t('contacts.startDialog.selectQueue') : undefined}
                // Admins may leave the queue out: show that choice as a value, not as an empty field.
                slotProps={{ htmlInput: { 'data-testid': 'start-ticket-queue' }, inputLabel: admin ? { shrink: true } : undefined, select: { displayEmpty: admin } }}
              >
                {admin ? <MenuItem value="">{t('contacts.startDialog.noQueue')}</MenuItem> : null}
                {choices.queues.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {choices.connections.length > 1 ? (
              <TextField
                select
                label={t('contacts.startDialog.connection')}
                value={choices.whatsappId}
                onChange={(event) => setChoices({ ...choices, whatsappId: Number(event.target.value) })}
                slotProps={{ htmlInput: { 'data-testid': 'start-ticket-connection' } }}
              >
                {choices.connections.map((connection) => (
                  <MenuItem key={connection.id} value={connection.id}>
                    {connection.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
          </Stack>
        </DialogContent>
        <FormDialogActions saving={busy} onCancel={close} saveTestId="start-ticket-confirm" saveLabel={t('contacts.startDialog.start')} saveDisabled={queueMissing} />
      </form>
    </Dialog>
  ) : null;

  return { start, busyContactId, dialog };
}
