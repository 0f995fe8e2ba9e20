import { FORWARD_MAX_CONTACTS, MESSAGE_EDIT_WINDOW_MINUTES, MESSAGE_MAX_LENGTH, type PresentedContact, type PresentedContactPage, type PresentedMessage } from '@atende/shared';
import { Autocomplete, Chip, Dialog, DialogContent, DialogTitle, FormControlLabel, Menu, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastInfo, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { storeMessages } from './conversation-queries';

/** The reactions offered at one click, as WhatsApp offers them. */
const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/** The contact search starts at 3 characters, as everywhere else (spec part 1 §9). */
const CONTACT_SEARCH_MIN = 3;

/** What the server accepts as an edit: our own sent text (the author's, or anyone's for an admin), not deleted, within WhatsApp's 15 minutes. */
export function canEditMessage(message: PresentedMessage, user: { id: number; profile: string } | null | undefined, now = Date.now()): boolean {
  if (!user || !message.fromMe || message.isDeleted) return false;
  if (message.userId !== user.id && user.profile !== 'admin') return false;
  if (message.mediaType !== 'chat' && message.mediaType !== null) return false;
  if (message.sendStatus === 'pending' || message.sendStatus === 'failed') return false;
  const data = message.dataJson;
  if (data?.poll || data?.order || data?.event || data?.location || data?.contacts) return false;
  return now - new Date(message.createdAt).getTime() < MESSAGE_EDIT_WINDOW_MINUTES * 60_000;
}

/** Whether a message can get a reaction: it reached WhatsApp (ours sent, or the customer's) and is not deleted. */
export function canReactTo(message: PresentedMessage): boolean {
  return !message.isDeleted && message.sendStatus !== 'pending' && message.sendStatus !== 'failed';
}

/** Edits one of our texts: the dialog holds the new text; saving sends it and shows the message as the server answers it. */
export function EditMessageDialog({ message, onClose }: { message: PresentedMessage | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [text, setText] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const value = text ?? message?.body ?? '';
  const empty = value.trim() === '';

  const close = () => {
    if (saving) return;
    setText(null);
    onClose();
  };
  const save = async () => {
    if (!message || empty) return;
    setSaving(true);
    try {
      const updated = await api.post<PresentedMessage>(`/messages/edit/${message.id}`, { body: value });
      storeMessages(queryClient, message.ticketId, [updated]);
      setText(null);
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={message !== null} onClose={close} fullWidth maxWidth="sm" data-testid="edit-message-dialog">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <DialogTitle>{t('conversation.message.editTitle')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={2}
            maxRows={10}
            margin="dense"
            label={t('conversation.message.editLabel')}
            value={value}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              // Enter saves, as in the composer; Shift+Enter is a new line.
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                void save();
              }
            }}
            error={empty}
            helperText={empty ? t('validation.required') : t('conversation.message.editHint')}
            slotProps={{ htmlInput: { maxLength: MESSAGE_MAX_LENGTH, 'data-testid': 'edit-message-input' } }}
          />
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={close} saveTestId="edit-message-save" saveDisabled={empty || value === message?.body} />
      </form>
    </Dialog>
  );
}

/** The reactions menu: the common ones, and taking one's reaction back when there is one. */
export function ReactionMenu({ anchor, message, onClose }: { anchor: HTMLElement | null; message: PresentedMessage | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const mine = message?.dataJson?.reactions?.find((reaction) => reaction.from === 'me')?.emoji;

  const react = async (emoji: string) => {
    if (!message) return;
    onClose();
    try {
      const answer = await api.post<{ message: PresentedMessage }>(`/messages/${message.id}/reactions`, { type: emoji });
      storeMessages(queryClient, message.ticketId, [answer.message]);
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Menu
      anchorEl={anchor}
      open={Boolean(anchor && message)}
      onClose={onClose}
      data-testid="reaction-menu"
      slotProps={{ list: { sx: { display: 'flex', flexWrap: 'wrap', maxWidth: 300, px: 0.5 } } }}
    >
      {QUICK_REACTIONS.map((emoji) => (
        <MenuItem
          key={emoji}
          selected={emoji === mine}
          aria-label={t('conversation.message.reactWith', { emoji })}
          data-testid="reaction-option"
          onClick={() => void react(emoji === mine ? '' : emoji)}
          sx={{ fontSize: 22, minWidth: 0, px: 1, borderRadius: 2 }}
        >
          {emoji}
        </MenuItem>
      ))}
      {mine ? (
        <MenuItem data-testid="reaction-remove" onClick={() => void react('')} sx={{ flexBasis: '100%', fontSize: 14 }}>
          {t('conversation.message.removeReaction')}
        </MenuItem>
      ) : null}
    </Menu>
  );
}

type ContactChoice = Pick<PresentedContact, 'id' | 'name' | 'number'>;

/**
 * Forwards messages to contacts the agent picks (searched by name or number, up to 5 as WhatsApp
 * allows): each goes into that contact's ticket, opened with the agent when it has none. Progress
 * and the outcome are toasts; a refusal names its reason and what was already forwarded stays.
 */
export function ForwardDialog({ messages, onClose }: { messages: PresentedMessage[]; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [input, setInput] = useState('');
  const [chosen, setChosen] = useState<ContactChoice[]>([]);
  const [sign, setSign] = useState(false);
  const [saving, setSaving] = useState(false);
  const open = messages.length > 0;
  const term = useDebouncedValue(input.trim());
  const contacts = useQuery({
    queryKey: ['contacts', 'search', term],
    queryFn: () => api.get<PresentedContactPage>('/contacts', { searchParam: term, pageNumber: 1 }),
    enabled: open && term.length >= CONTACT_SEARCH_MIN,
  });
  const options: ContactChoice[] = term.length >= CONTACT_SEARCH_MIN ? (contacts.data?.contacts ?? []) : [];

  const reset = () => {
    setInput('');
    setChosen([]);
    setSign(false);
  };
  const close = () => {
    if (saving) return;
    reset();
    onClose();
  };
  const forward = async () => {
    if (chosen.length === 0) return;
    setSaving(true);
    toastInfo(t('conversation.message.forwarding'));
    try {
      const answer = await api.post<{ messages: PresentedMessage[] }>('/message/forward', { messageIds: messages.map((m) => m.id), contactIds: chosen.map((c) => c.id), signMessage: sign });
      for (const message of answer.messages) storeMessages(queryClient, message.ticketId, [message]);
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      toastSuccess(t('conversation.message.forwardDone', { count: chosen.length }));
      reset();
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" data-testid="forward-dialog">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void forward();
        }}
      >
        <DialogTitle>{t('conversation.message.forwardTitle', { count: messages.length })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {messages.length === 1 && messages[0]?.body ? (
              <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'pre-wrap' }}>
                {messages[0].mediaName ?? messages[0].body}
              </Typography>
            ) : null}
            <Autocomplete<ContactChoice, true>
              multiple
              options={options}
              value={chosen}
              onChange={(_, value) => setChosen(value.slice(0, FORWARD_MAX_CONTACTS))}
              inputValue={input}
              onInputChange={(_, value, reason) => {
                if (reason !== 'reset') setInput(value);
              }}
              filterOptions={(list) => list}
              getOptionLabel={(option) => `${option.name} (${option.number})`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              getOptionDisabled={() => chosen.length >= FORWARD_MAX_CONTACTS}
              loading={contacts.isFetching}
              loadingText={t('common.loading')}
              noOptionsText={input.trim().length < CONTACT_SEARCH_MIN ? t('conversation.message.forwardSearch') : t('conversation.message.forwardNone')}
              renderValue={(value, getItemProps) =>
                value.map((option, index) => {
                  const { key, ...itemProps } = getItemProps({ index });
                  return <Chip key={key} size="small" label={option.name} {...itemProps} />;
                })
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  autoFocus
                  label={t('conversation.message.forwardContacts', { max: FORWARD_MAX_CONTACTS })}
                  slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'forward-search' } }}
                />
              )}
            />
            <FormControlLabel control={<Switch checked={sign} onChange={(event) => setSign(event.target.checked)} />} label={t('conversation.message.forwardSign')} />
          </Stack>
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={close} saveTestId="forward-send" saveLabel={t('conversation.message.forwardSend')} saveDisabled={chosen.length === 0} />
      </form>
    </Dialog>
  );
}
