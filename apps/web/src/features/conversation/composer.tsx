import { messageVariablesOf, messageVariableToken, unknownMessageVariables, type PresentedMessage, type PresentedQuickMessage, type PresentedTicket } from '@atende/shared';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import MicNoneOutlined from '@mui/icons-material/MicNoneOutlined';
import Send from '@mui/icons-material/Send';
import TextSnippetOutlined from '@mui/icons-material/TextSnippetOutlined';
import { Alert, Box, Button, Chip, FormControlLabel, IconButton, Stack, Switch, TextField, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http-client';
import { STORAGE } from '../../api/storage-keys';
import { ConfirmationDialog } from '../../components/confirmation-dialog';
import { toastError } from '../../components/toast';
import { RecordingBar, useAudioRecorder } from './audio-recorder';
import { useCustomerWindow } from './cloud-api';
import { EmojiButton } from './emoji-button';
import { StickerButton } from './sticker-button';
import { QuotedBlock } from './message-bubble';
import { QuickAnswerList, useQuickAnswers } from './quick-answer-list';
import { loneShortcut } from './quick-answers';
import { QUICK_REPLY_EVENT, SHORTCUT_ATTRIBUTE } from '../tickets/use-ticket-shortcuts';
import { TemplatePickerDialog } from './template-picker-dialog';
import { useSendMessage } from './use-send-message';

/** Spec part 1 §9: the input grows to at most 5 rows. */
const COMPOSER_MAX_ROWS = 5;

function storedSign(): boolean {
  // On by default (spec part 1 §9): only an explicit 'false' turns it off.
  return localStorage.getItem(STORAGE.sign) !== 'false';
}

export interface ComposerProps {
  ticket: PresentedTicket;
  quoted: PresentedMessage | null;
  onClearQuoted(): void;
}

/** The composer exists only for open tickets (spec part 1 §5); other statuses get a hint instead. */
export function Composer({ ticket, quoted, onClearQuoted }: ComposerProps) {
  const { t } = useTranslation();
  if (ticket.status !== 'open') {
    return (
      <Box sx={{ p: 2, borderTop: 1, borderColor: 'divider', textAlign: 'center' }} data-testid="composer-disabled">
        <Typography color="text.secondary">{t(ticket.status === 'pending' ? 'conversation.composer.acceptToReply' : 'conversation.composer.reopenToReply')}</Typography>
      </Box>
    );
  }
  return <OpenComposer ticket={ticket} quoted={quoted} onClearQuoted={onClearQuoted} />;
}

function OpenComposer({ ticket, quoted, onClearQuoted }: ComposerProps) {
  const { t } = useTranslation();
  const send = useSendMessage(ticket.id);
  const recorder = useAudioRecorder();
  // Cloud API: outside the customer's 24-hour window only templates may be sent.
  const customerWindow = useCustomerWindow(ticket);
  const windowClosed = !customerWindow.open;
  const [pickingTemplate, setPickingTemplate] = useState(false);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(storedSign);
  const [sending, setSending] = useState(false);
  const [activeOption, setActiveOption] = useState(0);
  // A `/word` that matched no quick answer, waiting for the agent to say it goes out as text.
  const [unmatchedShortcut, setUnmatchedShortcut] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const quickAnswers = useQuickAnswers(windowClosed ? '' : text);
  // The server fills in the known variables (a quick message's {{firstName}}) and refuses an unknown {{…}}: shown here
  // first. A {word} the agent types is plain text (docs/architecture.md, "Message variables").
  const unknownVariables = useMemo(() => unknownMessageVariables(text, { typed: true }), [text]);
  const active = Math.min(activeOption, Math.max(quickAnswers.length - 1, 0));

  // The `q` shortcut: focus here and start a quick reply, unless a draft is already typed (it is kept).
  useEffect(() => {
    if (windowClosed) return;
    const startQuickReply = () => {
      input.current?.focus();
      setText((value) => (value.trim() ? value : '/'));
      setActiveOption(0);
    };
    window.addEventListener(QUICK_REPLY_EVENT, startQuickReply);
    return () => window.removeEventListener(QUICK_REPLY_EVENT, startQuickReply);
  }, [windowClosed]);

  const deliver = async (body: string, attachments: File[]) => {
    if (!body.trim() && attachments.length === 0) return false;
    setSending(true);
    try {
      await send({ body, files: attachments, quotedMsgId: quoted?.id ?? null, sign });
      onClearQuoted();
      return true;
    } catch (error) {
      // The window closed meanwhile (the page only learns of it from the server).
      if (error instanceof ApiError && error.code === 'ERR_OUTSIDE_CUSTOMER_WINDOW') void customerWindow.refresh();
      toastError(error);
      // Stored and failed: it is in the list with its reason and a Retry action, so the text is not given back.
      if (error instanceof ApiError && Array.isArray(error.data.messages) && error.data.messages.length > 0) {
        onClearQuoted();
        return true;
      }
      return false;
    } finally {
      setSending(false);
      input.current?.focus();
    }
  };

  const submit = async (confirmed = false) => {
    if (sending || windowClosed || unknownVariables.length > 0) return;
    const [body, attachments] = [text, files];
    if (!body.trim() && attachments.length === 0) return;
    const shortcut = attachments.length === 0 ? loneShortcut(body) : null;
    if (shortcut && !confirmed) {
      setUnmatchedShortcut(shortcut);
      return;
    }
    // Cleared at once so typing can go on; restored if the send fails.
    setText('');
    setFiles([]);
    if (!(await deliver(body, attachments))) {
      setText(body);
      setFiles(attachments);
    }
  };

  const pickQuickAnswer = async (option: PresentedQuickMessage) => {
    setText(option.message);
    setActiveOption(0);
    input.current?.focus();
    if (!option.mediaUrl) return;
    try {
      const response = await fetch(option.mediaUrl);
      if (!response.ok) throw new Error(response.statusText);
      const blob = await response.blob();
      setFiles((current) => [...current, new File([blob], option.mediaName ?? 'file', { type: blob.type })]);
    } catch (error) {
      toastError(error);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (quickAnswers.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActiveOption((active + step + quickAnswers.length) % quickAnswers.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        void pickQuickAnswer(quickAnswers[active]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setText((value) => `${value} `);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  };

  const insertEmoji = (emoji: string) => {
    const el = input.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const finishRecording = async () => {
    const file = await recorder.finish();
    if (file) await deliver('', [file]);
  };

  const recording = recorder.state !== 'idle';
  const openTemplates = () => setPickingTemplate(true);
  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', px: 1, py: 0.75 }} data-window={customerWindow.enabled ? (windowClosed ? 'closed' : 'open') : undefined}>
      {windowClosed ? (
        <Alert
          severity="info"
          sx={{ mb: 0.75 }}
          data-testid="composer-window-closed"
          action={
            <Button color="inherit" size="small" onClick={openTemplates} data-testid="composer-window-template">
              {t('conversation.window.sendTemplate')}
            </Button>
          }
        >
          {t('conversation.window.closed')}
        </Alert>
      ) : null}
      {quoted ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', mb: 0.5 }} data-testid="quoted-preview">
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <QuotedBlock quoted={{ id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType, isDeleted: quoted.isDeleted, contact: quoted.contact }} />
          </Box>
          <IconButton size="small" onClick={onClearQuoted} aria-label={t('conversation.composer.cancelReply')} data-testid="quoted-cancel">
            <Close fontSize="small" />
          </IconButton>
        </Stack>
      ) : null}
      {files.length > 0 ? (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mb: 0.5 }} data-testid="composer-files">
          {files.map((file, index) => (
            <Chip
              key={`${file.name}-${index}`}
              label={file.name}
              data-testid="composer-file"
              onDelete={() => setFiles((current) => current.filter((_, i) => i !== index))}
              deleteIcon={<Close aria-label={t('conversation.composer.removeFile', { name: file.name })} />}
              sx={{ maxWidth: 240 }}
            />
          ))}
        </Stack>
      ) : null}
      {/* One row; on a phone the text gets the first line with send and record, the tools and the signature switch the second. */}
      <Box sx={{ display: 'flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, alignItems: 'flex-end', gap: 0.5 }}>
        {recording ? (
          <RecordingBar state={recorder.state} seconds={recorder.seconds} onCancel={() => void recorder.cancel()} onSend={() => void finishRecording()} />
        ) : (
          <>
            <Box sx={{ display: 'flex', alignItems: 'center', order: { xs: 2, sm: 0 } }}>
            <EmojiButton onPick={insertEmoji} disabled={windowClosed} />
            <StickerButton ticketId={ticket.id} disabled={windowClosed} />
            {customerWindow.enabled ? (
              <Tooltip title={t('conversation.templates.open')}>
                <IconButton aria-label={t('conversation.templates.open')} onClick={openTemplates} data-testid="composer-templates">
                  <TextSnippetOutlined />
                </IconButton>
              </Tooltip>
            ) : null}
            <IconButton aria-label={t('conversation.composer.attach')} onClick={() => fileInput.current?.click()} disabled={windowClosed}>
              <AttachFile />
            </IconButton>
            </Box>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              data-testid="composer-attach"
              onChange={(event) => {
                const picked = Array.from(event.target.files ?? []);
                if (picked.length > 0) setFiles((current) => [...current, ...picked]);
                event.target.value = '';
              }}
            />
            <Box sx={{ flex: 1, position: 'relative', minWidth: { xs: 'calc(100% - 88px)', sm: 0 } }}>
              <QuickAnswerList options={quickAnswers} active={active} onPick={(option) => void pickQuickAnswer(option)} />
              <TextField
                inputRef={input}
                value={text}
                onChange={(event) => {
                  setText(event.target.value);
                  setActiveOption(0);
                }}
                onKeyDown={onKeyDown}
                disabled={windowClosed}
                placeholder={t(windowClosed ? 'conversation.window.closedPlaceholder' : 'conversation.composer.placeholder')}
                multiline
                minRows={1}
                maxRows={COMPOSER_MAX_ROWS}
                fullWidth
                size="small"
                autoFocus
                slotProps={{
                  htmlInput: {
                    'data-testid': 'composer-input',
                    [SHORTCUT_ATTRIBUTE]: 'composer',
                    'aria-label': t(windowClosed ? 'conversation.window.closedPlaceholder' : 'conversation.composer.placeholder'),
                    'aria-autocomplete': 'list',
                    'aria-controls': quickAnswers.length > 0 ? 'quick-answers' : undefined,
                  },
                }}
              />
            </Box>
            <FormControlLabel
              sx={{ mx: 0, alignSelf: 'center', order: { xs: 2, sm: 0 } }}
              control={
                <Switch
                  size="small"
                  checked={sign}
                  onChange={(event) => {
                    setSign(event.target.checked);
                    localStorage.setItem(STORAGE.sign, String(event.target.checked));
                  }}
                  slotProps={{ input: { 'aria-label': t('conversation.composer.sign'), ...({ 'data-testid': 'composer-sign' } as object) } }}
                />
              }
              label={<Typography variant="caption">{t('conversation.composer.sign')}</Typography>}
            />
            <IconButton color="primary" onClick={() => void submit()} disabled={sending || windowClosed || unknownVariables.length > 0 || (!text.trim() && files.length === 0)} aria-label={t('conversation.composer.send')} data-testid="composer-send">
              <Send />
            </IconButton>
            <IconButton onClick={() => void recorder.start()} disabled={sending || windowClosed} aria-label={t('conversation.composer.record')} data-testid="composer-record">
              <MicNoneOutlined />
            </IconButton>
          </>
        )}
      </Box>
      {unknownVariables.length > 0 ? (
        <Typography variant="caption" color="warning.main" role="status" sx={{ display: 'block', mt: 0.5 }} data-testid="composer-unknown-variables">
          {t('conversation.composer.unknownVariables', {
            names: unknownVariables.join(', '),
            known: messageVariablesOf('ticket').map(messageVariableToken).join(', '),
          })}
        </Typography>
      ) : null}
      <ConfirmationDialog
        open={unmatchedShortcut !== null}
        title={t('conversation.composer.unmatchedShortcutTitle', { shortcut: unmatchedShortcut ?? '' })}
        onConfirm={() => void submit(true)}
        onClose={() => {
          setUnmatchedShortcut(null);
          input.current?.focus();
        }}
      >
        {t('conversation.composer.unmatchedShortcut', { shortcut: unmatchedShortcut ?? '' })}
      </ConfirmationDialog>
      {pickingTemplate ? <TemplatePickerDialog ticketId={ticket.id} whatsappId={ticket.whatsappId} onClose={() => setPickingTemplate(false)} /> : null}
    </Box>
  );
}
