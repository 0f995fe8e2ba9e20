import type { PresentedConnection, PresentedQueueSummary, PresentedTicket, PresentedUser } from '@atende/shared';
import { Autocomplete, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../../components/use-debounced-value';
import type { TransferInput } from '../tickets/ticket-actions';

/** Spec part 1 §2, §9: user search starts at 3 characters; the first load waits 500 ms. */
const USER_SEARCH_MIN_CHARS = 3;

/** The term sent to GET /users: nothing until 3 characters are typed. */
export function userSearchTerm(typed: string): string {
  const term = typed.trim();
  return term.length >= USER_SEARCH_MIN_CHARS ? term : '';
}

/**
 * The queue the form keeps when a user is chosen: the one already chosen, else the
 * ticket's, when the user serves it (a user without queues serves any); else none.
 */
export function keptQueue(user: { queues: PresentedQueueSummary[] } | null, candidates: (number | '' | null)[]): number | '' {
  const served = user?.queues && user.queues.length > 0 ? new Set(user.queues.map((q) => q.id)) : null;
  for (const candidate of candidates) {
    if (typeof candidate === 'number' && (!served || served.has(candidate))) return candidate;
  }
  return '';
}

/** Why the transfer button is off, said under the queue selector. */
export function transferQueueHint(validQueue: boolean, user: { queues: PresentedQueueSummary[] } | null, ticketQueueId: number | null): 'queueRequired' | 'queueNotServed' | null {
  if (validQueue) return null;
  if (user && ticketQueueId !== null && keptQueue(user, [ticketQueueId]) === '') return 'queueNotServed';
  return 'queueRequired';
}

export interface TransferDialogProps {
  ticket: PresentedTicket;
  onClose(): void;
  onTransfer(input: TransferInput): Promise<unknown>;
}

export function TransferDialog({ ticket, onClose, onTransfer }: TransferDialogProps) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [typed, setTyped] = useState('');
  const [user, setUser] = useState<PresentedUser | null>(null);
  // The ticket's queue is kept unless another is chosen (spec: a transfer needs a queue).
  const [queueId, setQueueId] = useState<number | ''>(ticket.queueId ?? '');
  const [whatsappId, setWhatsappId] = useState<number | ''>(ticket.whatsappId ?? '');
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const term = useDebouncedValue(userSearchTerm(typed));

  useEffect(() => {
    const timer = setTimeout(() => setReady(true), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, []);

  const users = useQuery({
    queryKey: ['users', 'search', term],
    queryFn: () => api.get<{ users: PresentedUser[] }>('/users', { searchParam: term, pageNumber: 1 }),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const queues = useQuery({ queryKey: ['queues'], queryFn: () => api.get<PresentedQueueSummary[]>('/queue') });
  const connections = useQuery({ queryKey: ['connections'], queryFn: () => api.get<PresentedConnection[]>('/whatsapp') });

  // A chosen user offers that user's queues; without a user, any queue of the company.
  const queueOptions = user?.queues && user.queues.length > 0 ? user.queues : (queues.data ?? []);
  const validQueue = typeof queueId === 'number' && queueOptions.some((q) => q.id === queueId);
  const canSubmit = validQueue && typeof whatsappId === 'number' && !submitting;
  const queueHint = transferQueueHint(validQueue, user, ticket.queueId);

  const submit = async () => {
    if (!canSubmit) return;
    setSubmitting(true);
    await onTransfer({ userId: user?.id ?? null, queueId: typeof queueId === 'number' ? queueId : null, whatsappId: typeof whatsappId === 'number' ? whatsappId : null });
    setSubmitting(false);
    onClose();
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" slotProps={{ paper: { 'data-testid': 'transfer-dialog' } as object }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogTitle>{t('conversation.transfer.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Autocomplete
              options={users.data?.users ?? []}
              value={user}
              onChange={(_, value) => {
                setUser(value);
                setQueueId((current) => keptQueue(value, [current, ticket.queueId]));
              }}
              inputValue={typed}
              onInputChange={(_, value) => setTyped(value)}
              getOptionLabel={(option) => option.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              filterOptions={(options) => options}
              loading={!ready || users.isFetching}
              noOptionsText={t('conversation.transfer.noOptions')}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('conversation.transfer.user')}
                  helperText={t('conversation.transfer.userHint')}
                  slotProps={{
                    ...params.slotProps,
                    htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'transfer-user' },
                    input: {
                      ...params.slotProps.input,
                      endAdornment: (
                        <>
                          {users.isFetching ? <CircularProgress size={18} /> : null}
                          {params.slotProps.input.endAdornment}
                        </>
                      ),
                    },
                  }}
                />
              )}
            />
            <TextField
              select
              required
              label={t('conversation.transfer.queue')}
              value={validQueue ? queueId : ''}
              helperText={queueHint ? t(`conversation.transfer.${queueHint}`, { name: user?.name ?? '' }) : undefined}
              onChange={(event) => setQueueId(Number(event.target.value))}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'transfer-queue' } as object } }}
            >
              {queueOptions.map((queue) => (
                <MenuItem key={queue.id} value={queue.id} data-testid="transfer-queue-option">
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              required
              label={t('conversation.transfer.connection')}
              value={connections.data?.some((c) => c.id === whatsappId) ? whatsappId : ''}
              onChange={(event) => setWhatsappId(Number(event.target.value))}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'transfer-connection' } as object } }}
            >
              {(connections.data ?? []).map((connection) => (
                <MenuItem key={connection.id} value={connection.id} data-testid="transfer-connection-option">
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!canSubmit} data-testid="transfer-submit">
            {t('conversation.transfer.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
