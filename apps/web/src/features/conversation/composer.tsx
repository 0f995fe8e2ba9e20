import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import MicNoneOutlined from '@mui/icons-material/MicNoneOutlined';
import Send from '@mui/icons-material/Send';
import { Box, Chip, FormControlLabel, IconButton, Stack, Switch, TextField, Typography } from '@mui/material';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message, QuickMessage, Ticket } from '../../api/desk-types';
import { STORAGE } from '../../api/storage-keys';
import { toastError } from '../../components/toast';
import { RecordingBar, useAudioRecorder } from './audio-recorder';
import { EmojiButton } from './emoji-button';
import { QuotedBlock } from './message-bubble';
import { QuickAnswerList, useQuickAnswers } from './quick-answer-list';
import { useSendMessage } from './use-send-message';

/** Spec part 1 §9: the input grows to at most 5 rows. */
export const COMPOSER_MAX_ROWS = 5;

function storedSign(): boolean {
  // On by default (spec part 1 §9): only an explicit 'false' turns it off.
  return localStorage.getItem(STORAGE.sign) !== 'false';
}

export interface ComposerProps {
  ticket: Ticket;
  quoted: Message | null;
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
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(storedSign);
  const [sending, setSending] = useState(false);
  const [activeOption, setActiveOption] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const quickAnswers = useQuickAnswers(text);
  const active = Math.min(activeOption, Math.max(quickAnswers.length - 1, 0));

  const deliver = async (body: string, attachments: File[]) => {
    if (!body.trim() && attachments.length === 0) return false;
    setSending(true);
    try {
      await send({ body, files: attachments, quotedMsgId: quoted?.id ?? null, sign });
      onClearQuoted();
      return true;
    } catch (error) {
      toastError(error);
      return false;
    } finally {
      setSending(false);
      input.current?.focus();
    }
  };

  const submit = async () => {
    if (sending) return;
    const [body, attachments] = [text, files];
    if (!body.trim() && attachments.length === 0) return;
    // Cleared at once so typing can go on; restored if the send fails.
    setText('');
    setFiles([]);
    if (!(await deliver(body, attachments))) {
      setText(body);
      setFiles(attachments);
    }
  };

  const pickQuickAnswer = async (option: QuickMessage) => {
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
  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', px: 1, py: 0.75 }}>
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
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-end' }}>
        {recording ? (
          <RecordingBar state={recorder.state} seconds={recorder.seconds} onCancel={() => void recorder.cancel()} onSend={() => void finishRecording()} />
        ) : (
          <>
            <EmojiButton onPick={insertEmoji} />
            <IconButton aria-label={t('conversation.composer.attach')} onClick={() => fileInput.current?.click()}>
              <AttachFile />
            </IconButton>
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
            <Box sx={{ flex: 1, position: 'relative', minWidth: 0 }}>
              <QuickAnswerList options={quickAnswers} active={active} onPick={(option) => void pickQuickAnswer(option)} />
              <TextField
                inputRef={input}
                value={text}
                onChange={(event) => {
                  setText(event.target.value);
                  setActiveOption(0);
                }}
                onKeyDown={onKeyDown}
                placeholder={t('conversation.composer.placeholder')}
                multiline
                minRows={1}
                maxRows={COMPOSER_MAX_ROWS}
                fullWidth
                size="small"
                autoFocus
                slotProps={{
                  htmlInput: {
                    'data-testid': 'composer-input',
                    'aria-label': t('conversation.composer.placeholder'),
                    'aria-autocomplete': 'list',
                    'aria-controls': quickAnswers.length > 0 ? 'quick-answers' : undefined,
                  },
                }}
              />
            </Box>
            <FormControlLabel
              sx={{ mx: 0, alignSelf: 'center' }}
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
              label={<Typography variant="caption" sx={{ display: { xs: 'none', sm: 'inline' } }}>{t('conversation.composer.sign')}</Typography>}
            />
            <IconButton color="primary" onClick={() => void submit()} disabled={sending || (!text.trim() && files.length === 0)} aria-label={t('conversation.composer.send')} data-testid="composer-send">
              <Send />
            </IconButton>
            <IconButton onClick={() => void recorder.start()} disabled={sending} aria-label={t('conversation.composer.record')} data-testid="composer-record">
              <MicNoneOutlined />
            </IconButton>
          </>
        )}
      </Stack>
    </Box>
  );
}
