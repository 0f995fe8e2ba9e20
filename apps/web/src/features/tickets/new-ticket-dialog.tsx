import type { PresentedContact, PresentedContactPage, PresentedTicket } from '@atende/shared';
import PersonAddAltOutlinedIcon from '@mui/icons-material/PersonAddAltOutlined';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { connectionsQuery } from '../connections/connections-queries';
import { useSelectableQueues } from './use-selectable-queues';

// Loaded when a contact is added: its number check brings the phone library's metadata, which the desk does not otherwise need.
const ContactModal = lazy(() => import('../contacts/contact-modal').then((module) => ({ default: module.ContactModal })));

/** Spec part 1 §5, §9: the contact search starts at 3 characters. */
const CONTACT_SEARCH_MIN = 3;

type ContactChoice = Pick<PresentedContact, 'id' | 'name' | 'number'>;
/** The "add contact {name}" entry offered when a typed name matches nobody. */
type Option = ContactChoice | { add: string };

const isAddOption = (option: Option): option is { add: string } => 'add' in option;

/**
 * New-ticket dialog (spec part 1 §2, §5, §8): pick or add a contact, a queue
 * (required unless admin) and, when there is a choice, a connection; the ticket
 * opens with the user as attendant. An open ticket of the same contact is
 * reported with its owner and queue, or offered when it is the user's own.
 */
export function NewTicketDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const admin = user?.profile === 'admin';

  const [input, setInput] = useState('');
  const [contact, setContact] = useState<ContactChoice | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [adding, setAdding] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [existing, setExisting] = useState<PresentedTicket | null>(null);

  const term = useDebouncedValue(input.trim());
  const searching = term.length >= CONTACT_SEARCH_MIN && !(contact && contact.name === input);
  const contacts = useQuery({
    queryKey: ['contacts', 'search', term],
    queryFn: () => api.get<PresentedContactPage>('/contacts', { searchParam: term, pageNumber: 1 }),
    enabled: open && searching,
  });
  const { queues } = useSelectableQueues();
  const connections = useQuery({ ...connectionsQuery(api), enabled: open });

  // One queue is no choice at all for a user; the preferred connection is the user's, else the default.
  const onlyQueue = !admin && queues.length === 1 ? queues[0]?.id : undefined;
  const effectiveQueueId = queueId === '' && onlyQueue !== undefined ? onlyQueue : queueId;
  const connectionList = connections.data ?? [];
  const preferredConnection = connectionList.find((c) => c.id === user?.whatsappId) ?? connectionList.find((c) => c.isDefault) ?? connectionList[0];
  const effectiveWhatsappId = whatsappId === '' ? (preferredConnection?.id ?? '') : whatsappId;

  const found = contacts.data?.contacts ?? [];
  const typed = input.trim();
  const waitingForSearch = searching && (term !== typed || contacts.isFetching);
  const options: Option[] = found.length === 0 && searching && !waitingForSearch ? [{ add: typed }] : found;

  const contactMissing = submitted && !contact;
  const queueMissing = submitted && !admin && effectiveQueueId === '';

  const reset = () => {
    setInput('');
    setContact(null);
    setQueueId('');
    setWhatsappId('');
    setSubmitted(false);
    setExisting(null);
  };
  const close = () => {
    if (saving) return;
    reset();
    onClose();
  };

  const submit = async () => {
    setSubmitted(true);
    setExisting(null);
    if (!contact || (!admin && effectiveQueueId === '')) return;
    setSaving(true);
    try {
      const ticket = await api.post<PresentedTicket>('/tickets', {
        contactId: contact.id,
        queueId: effectiveQueueId === '' ? null : effectiveQueueId,
        whatsappId: effectiveWhatsappId === '' ? null : effectiveWhatsappId,
        userId: user?.id,
        status: 'open',
      });
      queryClient.setQueryData(['ticket', ticket.uuid], ticket);
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      reset();
      onClose();
      void navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      toastError(error);
      if (error instanceof ApiError && error.code === 'ERR_OTHER_OPEN_TICKET') {
        const other = error.data.ticket as PresentedTicket | undefined;
        if (other) setExisting(other);
      }
    } finally {
      setSaving(false);
    }
  };

  const goToExisting = (ticket: PresentedTicket) => {
    reset();
    onClose();
    void navigate(`/tickets/${ticket.uuid}`);
  };

  const existingNotice = (ticket: PresentedTicket) => {
    const queue = ticket.queue?.name ?? t('tickets.newTicket.noQueue');
    if (ticket.userId !== null && ticket.userId === user?.id) {
      return (
        <Alert
          severity="info"
          data-testid="new-ticket-existing"
          action={
            <Button color="inherit" size="small" onClick={() => goToExisting(ticket)} data-testid="new-ticket-go-existing">
              {t('tickets.newTicket.goToTicket')}
            </Button>
          }
        >
          {t('tickets.newTicket.own')}
        </Alert>
      );
    }
    return (
      <Alert severity="warning" data-testid="new-ticket-existing">
        {ticket.user ? t('tickets.newTicket.otherUser', { user: ticket.user.name, queue }) : t('tickets.newTicket.waiting', { queue })}
      </Alert>
    );
  };

  return (
    <>
      <Dialog open={open && adding === null} onClose={close} fullWidth maxWidth="xs" data-testid="new-ticket-dialog">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <DialogTitle>{t('tickets.newTicket.title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Autocomplete<Option>
                options={options}
                value={contact}
                onChange={(_, value) => {
                  setExisting(null);
                  if (value && isAddOption(value)) {
                    setAdding(value.add);
                    return;
                  }
                  setContact(value);
                }}
                inputValue={input}
                onInputChange={(_, value) => setInput(value)}
                // The server already filtered; the "add" entry must survive local filtering.
                filterOptions={(list) => list}
                getOptionLabel={(option) => (isAddOption(option) ? option.add : option.name)}
                isOptionEqualToValue={(a, b) => !isAddOption(a) && !isAddOption(b) && a.id === b.id}
                loading={waitingForSearch}
                loadingText={t('common.loading')}
                noOptionsText={typed.length < CONTACT_SEARCH_MIN ? t('tickets.newTicket.contactHint') : t('tickets.newTicket.noContacts')}
                renderOption={(props, option) => {
                  const { key, ...rest } = props;
                  if (isAddOption(option)) {
                    return (
                      <Box component="li" key={key} {...rest} sx={{ gap: 1 }} data-testid="new-ticket-add-contact">
                        <PersonAddAltOutlinedIcon fontSize="small" color="primary" />
                        {t('tickets.newTicket.addContact', { name: option.add })}
                      </Box>
                    );
                  }
                  return (
                    <li key={key} {...rest}>
                      <Box>
                        <Typography variant="body2">{option.name}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {option.number}
                        </Typography>
                      </Box>
                    </li>
                  );
                }}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label={t('tickets.newTicket.contact')}
                    required
                    autoFocus
                    error={contactMissing}
                    helperText={contactMissing ? t('tickets.newTicket.selectContact') : contact ? undefined : t('tickets.newTicket.contactHint')}
                    slotProps={{
                      ...params.slotProps,
                      htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'new-ticket-contact' },
                      input: {
                        ...params.slotProps.input,
                        endAdornment: (
                          <>
                            {waitingForSearch ? <CircularProgress size={18} aria-label={t('common.loading')} /> : null}
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
                label={t('tickets.newTicket.queue')}
                value={effectiveQueueId}
                onChange={(event) => setQueueId(event.target.value === '' ? '' : Number(event.target.value))}
                required={!admin}
                error={queueMissing}
                helperText={
                  !admin && queues.length === 0 ? t('tickets.newTicket.noQueues') : queueMissing ? t('tickets.newTicket.selectQueue') : undefined
                }
                slotProps={{
                  htmlInput: { 'data-testid': 'new-ticket-queue' },
                  // An admin's empty choice means "no queue" and is shown as such.
                  select: { displayEmpty: admin },
                  inputLabel: admin ? { shrink: true } : undefined,
                }}
              >
                {admin ? (
                  <MenuItem value="">
                    <em>{t('tickets.newTicket.noQueue')}</em>
                  </MenuItem>
                ) : null}
                {queues.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: queue.color, mr: 1, display: 'inline-block' }} />
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
              {connectionList.length > 1 ? (
                <TextField
                  select
                  label={t('tickets.newTicket.connection')}
                  value={effectiveWhatsappId}
                  onChange={(event) => setWhatsappId(Number(event.target.value))}
                  slotProps={{ htmlInput: { 'data-testid': 'new-ticket-connection' } }}
                >
                  {connectionList.map((connection) => (
                    <MenuItem key={connection.id} value={connection.id}>
                      {connection.name}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              {existing ? existingNotice(existing) : null}
            </Stack>
          </DialogContent>
          <FormDialogActions saving={saving} onCancel={close} saveTestId="new-ticket-submit" saveLabel={t('tickets.newTicket.submit')} />
        </form>
      </Dialog>
      {adding !== null ? (
        <Suspense fallback={null}>
          <ContactModal
            open
            initialValues={{ name: adding }}
            onClose={() => setAdding(null)}
            onSaved={(saved) => {
              setContact({ id: saved.id, name: saved.name, number: saved.number });
              setInput(saved.name);
              setAdding(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
