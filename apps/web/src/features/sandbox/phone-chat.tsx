import type { PresentedConnection } from '@atende/shared';
import AttachFile from '@mui/icons-material/AttachFile';
import Block from '@mui/icons-material/Block';
import Close from '@mui/icons-material/Close';
import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import DoneAll from '@mui/icons-material/DoneAll';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import PhoneMissed from '@mui/icons-material/PhoneMissed';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Send from '@mui/icons-material/Send';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined';
import { Avatar, Box, Chip, CircularProgress, IconButton, Link, Stack, TextField, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { HiddenFileInput } from '../../components/hidden-file-input';
import { formatTime } from '../../i18n/dates';
import { FormattedText } from '../conversation/format-message';
import { toastError, toastInfo } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { vcardFor, type SandboxCustomer } from './phone-number';
import { sandboxKeys, useConversation, useConversationRefreshOnMessages, type PhoneEntry } from './sandbox-queries';

/** A sample location (Avenida Paulista) in the "lat,lng" form the conversation screen links to a map. */
const SAMPLE_LOCATION = '-23.561414,-46.655881';
const SAMPLE_CARD_NUMBER = '5511977776666';

/** A sample catalog order, as a customer sends one from the catalog's cart. */
const SAMPLE_ORDER = {
  text: 'Entregar à tarde',
  items: [
    { productId: 'CAMISETA-M', quantity: 2, price: 49.9, currency: 'BRL' },
    { productId: 'BONE-AZUL', quantity: 1, price: 35, currency: 'BRL' },
  ],
};

type SpecialType = 'call' | 'location' | 'vcard' | 'order';

/** The quoted message above a reply: a bar on the left, who wrote it and its text on one or two lines. */
function QuotedEntry({ quoted }: { quoted: PhoneEntry | undefined }) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="phone-message-quoted"
      sx={{ mb: 0.5, px: 1, py: 0.5, borderLeft: 4, borderColor: quoted?.fromCustomer ? '#06cf9c' : '#53bdeb', borderRadius: 1, bgcolor: 'action.hover' }}
    >
      <Typography variant="caption" sx={{ display: 'block', fontWeight: 600, color: quoted?.fromCustomer ? '#06cf9c' : '#53bdeb' }}>
        {quoted?.fromCustomer ? t('sandbox.quotedYou') : t('sandbox.quotedCompany')}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', wordBreak: 'break-word' }}>
        {quoted ? quoted.deleted ? t('sandbox.deleted') : quoted.body ? <FormattedText text={quoted.body} /> : (quoted.mediaName ?? t('sandbox.file')) : t('sandbox.quotedMissing')}
      </Typography>
    </Box>
  );
}

function EntryContent({ entry }: { entry: PhoneEntry }) {
  const { t } = useTranslation();
  if (entry.deleted) {
    return (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', fontStyle: 'italic', color: 'text.secondary' }} data-testid="phone-message-deleted">
        <Block fontSize="small" />
        <Typography variant="body2">{t('sandbox.deleted')}</Typography>
      </Stack>
    );
  }
  // What WhatsApp shows: *bold*, _italic_, ~strike~ and ```monospace``` rendered, never as markup.
  const text = entry.body ? (
    <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      <FormattedText text={entry.body} />
    </Typography>
  ) : null;
  switch (entry.mediaType) {
    case 'call_log':
      return (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <PhoneMissed fontSize="small" color="error" />
          <Typography variant="body2">{t('sandbox.callLog')}</Typography>
        </Stack>
      );
    case 'locationMessage':
      return (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <PlaceOutlined fontSize="small" />
          <Typography variant="body2">
            {t('sandbox.locationLabel')}
            {entry.body ? `: ${entry.body}` : ''}
          </Typography>
        </Stack>
      );
    case 'vcard':
    case 'contactMessage': {
      const name = /^FN:(.*)$/m.exec(entry.body)?.[1]?.trim();
      return (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <ContactPhoneOutlined fontSize="small" />
          <Typography variant="body2">{name ? `${t('sandbox.contactLabel')}: ${name}` : t('sandbox.contactLabel')}</Typography>
        </Stack>
      );
    }
  }
  if (!entry.mediaUrl) return text;
  const name = entry.mediaName ?? t('sandbox.file');
  // A media message's text is often just its file name; show it once.
  const caption = entry.body && entry.body !== entry.mediaName ? text : null;
  let media;
  if (entry.mediaType === 'image') media = <Box component="img" src={entry.mediaUrl} alt={name} loading="lazy" sx={{ display: 'block', maxWidth: '100%', maxHeight: 260, borderRadius: 1 }} />;
  else if (entry.mediaType === 'audio') media = <Box component="audio" controls preload="metadata" src={entry.mediaUrl} aria-label={name} sx={{ maxWidth: '100%', width: 240 }} />;
  else if (entry.mediaType === 'video') media = <Box component="video" controls preload="metadata" src={entry.mediaUrl} aria-label={name} sx={{ maxWidth: '100%', borderRadius: 1 }} />;
  else
    media = (
      <Link href={entry.mediaUrl} target="_blank" rel="noopener noreferrer" download={name} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, wordBreak: 'break-all' }}>
        <InsertDriveFileOutlined fontSize="small" />
        {name}
      </Link>
    );
  return (
    <Stack spacing={0.5}>
      {media}
      {caption}
    </Stack>
  );
}

/**
 * The customer's phone: a WhatsApp-like column where the customer's own
 * messages sit on the right and the company's replies on the left.
 */
export function PhoneChat({ connection, customer, onSent }: { connection: PresentedConnection; customer: SandboxCustomer | null; onSent(customer: SandboxCustomer): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  // Typing a number should not fetch a conversation per keystroke.
  const shownNumber = useDebouncedValue(customer?.number ?? null);
  const conversation = useConversation(connection.id, shownNumber);
  useConversationRefreshOnMessages(connection.id);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const entries = conversation.data ?? [];
  const lastId = entries.at(-1)?.id;
  const byId = new Map(entries.map((entry) => [entry.id, entry]));

  // Like a phone: the newest message stays in view.
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lastId, shownNumber]);

  const send = async (special?: SpecialType) => {
    if (!customer || sending) return;
    const body = special === 'location' ? SAMPLE_LOCATION : special === 'vcard' ? vcardFor(t('sandbox.sampleContact'), SAMPLE_CARD_NUMBER) : special === 'call' ? '' : text;
    if (!special && !body.trim() && !file) return;
    setSending(true);
    try {
      const fields = { from: customer.number, name: customer.name.trim() || customer.number, body, type: special ?? 'text' };
      if (special === 'order') {
        await api.post(`/sandbox/${connection.id}/inbound`, { ...fields, order: SAMPLE_ORDER });
      } else if (!special && file) {
        const form = new FormData();
        for (const [key, value] of Object.entries(fields)) form.append(key, value);
        form.append('media', file);
        await api.post(`/sandbox/${connection.id}/inbound`, form);
      } else {
        await api.post(`/sandbox/${connection.id}/inbound`, fields);
      }
      if (!special) {
        setText('');
        setFile(null);
      }
      onSent(customer);
      await queryClient.invalidateQueries({ queryKey: sandboxKeys.conversation(connection.id, customer.number) });
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
    }
  };

  /** The customer reacts with a thumbs-up to one of the product's messages. */
  const react = async (entry: PhoneEntry) => {
    if (!customer) return;
    try {
      await api.post(`/sandbox/${connection.id}/react`, { id: entry.id, from: customer.number, emoji: '👍' });
      toastInfo(t('sandbox.reacted'));
    } catch (error) {
      toastError(error);
    }
  };

  const markRead = async () => {
    if (!customer) return;
    try {
      const { read } = await api.post<{ read: number }>(`/sandbox/${connection.id}/read`, { number: customer.number });
      toastInfo(t('sandbox.markedRead', { count: read }));
    } catch (error) {
      toastError(error);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const disabled = !customer || sending;
  return (
    <Box
      data-testid="phone"
      sx={{
        width: '100%',
        maxWidth: 420,
        // Stack resets its children's margins, so centre with alignSelf.
        alignSelf: 'center',
        // Fills the screen below the page's header and the customer fields.
        height: { xs: 'calc(100vh - 150px)', sm: 'calc(100vh - 370px)' },
        minHeight: 420,
        display: 'flex',
        flexDirection: 'column',
        border: 1,
        borderColor: 'divider',
        borderRadius: 3,
        overflow: 'hidden',
        boxShadow: 3,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1.5, py: 1, bgcolor: '#075e54', color: '#fff' }}>
        <Avatar sx={{ width: 36, height: 36, bgcolor: '#25d366' }}>{connection.name.slice(0, 1).toUpperCase()}</Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {connection.name}
          </Typography>
          <Typography variant="caption" noWrap sx={{ opacity: 0.85, display: 'block' }}>
            {customer ? `${t('sandbox.customerSide')}: ${customer.name || customer.number}` : '\u00a0'}
          </Typography>
        </Box>
        <Tooltip title={t('sandbox.markRead')}>
          <span>
            <IconButton size="small" sx={{ color: '#fff' }} aria-label={t('sandbox.markRead')} disabled={!customer} onClick={() => void markRead()} data-testid="phone-mark-read">
              <DoneAll fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>

      <Box
        ref={scroller}
        role="log"
        aria-live="polite"
        data-testid="phone-messages"
        sx={(theme) => ({ flex: 1, overflowY: 'auto', px: 1.5, py: 1, bgcolor: theme.palette.mode === 'dark' ? '#0b141a' : '#efeae2' })}
      >
        {conversation.isLoading ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress size={28} aria-label={t('common.loading')} />
          </Box>
        ) : null}
        {!conversation.isLoading && entries.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 4, px: 2 }} data-testid="phone-empty">
            {t('sandbox.empty')}
          </Typography>
        ) : null}
        <Stack spacing={0.75}>
          {entries.map((entry) => (
            <Box
              key={`${entry.fromCustomer ? 'c' : 'o'}-${entry.id}`}
              data-testid="phone-message"
              data-from-customer={String(entry.fromCustomer)}
              sx={(theme) => ({
                alignSelf: entry.fromCustomer ? 'flex-end' : 'flex-start',
                maxWidth: '82%',
                px: 1.25,
                py: 0.75,
                borderRadius: 2,
                borderTopRightRadius: entry.fromCustomer ? 4 : undefined,
                borderTopLeftRadius: entry.fromCustomer ? undefined : 4,
                boxShadow: 1,
                color: 'text.primary',
                bgcolor: entry.fromCustomer ? (theme.palette.mode === 'dark' ? '#005c4b' : '#d9fdd3') : theme.palette.mode === 'dark' ? '#202c33' : '#fff',
              })}
            >
              {entry.quotedId ? <QuotedEntry quoted={byId.get(entry.quotedId)} /> : null}
              <EntryContent entry={entry} />
              <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center', mt: 0.25 }}>
                {!entry.fromCustomer && !entry.deleted ? (
                  <IconButton size="small" aria-label={t('sandbox.react')} onClick={() => void react(entry)} data-testid="phone-react" sx={{ p: 0.25 }}>
                    <ThumbUpOutlined sx={{ fontSize: 14 }} />
                  </IconButton>
                ) : null}
                <Typography variant="caption" color="text.secondary" sx={{ lineHeight: 1.2 }}>
                  {formatTime(entry.createdAt)}
                </Typography>
              </Stack>
            </Box>
          ))}
        </Stack>
      </Box>

      {file ? (
        <Box sx={{ px: 1, pt: 1, bgcolor: 'background.paper' }}>
          <Chip
            icon={<AttachFile />}
            label={file.name}
            onDelete={() => setFile(null)}
            deleteIcon={<Close aria-label={t('sandbox.removeFile')} />}
            sx={{ maxWidth: '100%' }}
            data-testid="phone-file-chip"
          />
        </Box>
      ) : null}
      <Box sx={{ p: 1, bgcolor: 'background.paper', borderTop: 1, borderColor: 'divider' }}>
        <Stack direction="row" spacing={0.5} sx={{ mb: 0.5 }}>
          {(
            [
              ['attach', <AttachFile key="i" fontSize="small" />, t('sandbox.attach')],
              ['call', <PhoneMissed key="i" fontSize="small" />, t('sandbox.missedCall')],
              ['location', <PlaceOutlined key="i" fontSize="small" />, t('sandbox.location')],
              ['vcard', <ContactPhoneOutlined key="i" fontSize="small" />, t('sandbox.contactCard')],
              ['order', <ShoppingCartOutlined key="i" fontSize="small" />, t('sandbox.order')],
            ] as const
          ).map(([action, icon, label]) => (
            <Tooltip key={action} title={label}>
              <span>
                <IconButton
                  size="small"
                  aria-label={label}
                  disabled={disabled}
                  onClick={() => (action === 'attach' ? fileInput.current?.click() : void send(action))}
                  data-testid={`phone-${action}`}
                >
                  {icon}
                </IconButton>
              </span>
            </Tooltip>
          ))}
        </Stack>
        <HiddenFileInput inputRef={fileInput} testId="phone-file" onPick={setFile} />
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-end' }}>
          <TextField
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={t('sandbox.input')}
            size="small"
            multiline
            maxRows={4}
            fullWidth
            disabled={!customer}
            slotProps={{ htmlInput: { 'data-testid': 'phone-input', 'aria-label': t('sandbox.input') } }}
          />
          <Tooltip title={t('sandbox.send')}>
            <span>
              <IconButton color="primary" aria-label={t('sandbox.send')} disabled={disabled || (!text.trim() && !file)} onClick={() => void send()} data-testid="phone-send">
                {sending ? <CircularProgress size={22} /> : <Send />}
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      </Box>
    </Box>
  );
}
