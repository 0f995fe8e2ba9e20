import type { PresentedMessage } from '@atende/shared';
import AccessTime from '@mui/icons-material/AccessTime';
import Block from '@mui/icons-material/Block';
import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import PhoneMissed from '@mui/icons-material/PhoneMissed';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import { Box, Button, Chip, IconButton, Menu, MenuItem, Stack, Typography, type Theme } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../i18n/dates';
import { FormattedText } from './format-message';
import { ackState } from './message-content';
import { detailText, EventCard, MediaState, MessageOrigin, OrderCard, PollCard, Reactions } from './message-details';
import { canReactTo } from './message-actions';
import { bodyIsMediaName, MessageMedia } from './message-media';

/**
 * The time and ticks on one's own (green) bubbles: the theme's secondary text is too faint
 * there (3.98:1 in dark mode); these keep 4.5:1 on both greens.
 */
const OWN_META_COLOR = (theme: Theme) => (theme.palette.mode === 'dark' ? 'rgba(255, 255, 255, 0.85)' : 'rgba(0, 0, 0, 0.68)');


function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const state = ackState(ack);
  const label = t(`conversation.ack.${state}`);
  const props = { fontSize: 'inherit' as const, titleAccess: label, 'data-testid': 'message-ack', 'data-ack': ack };
  if (state === 'pending') return <AccessTime {...props} />;
  if (state === 'sent') return <Done {...props} />;
  if (state === 'delivered') return <DoneAll {...props} />;
  // Read (3) keeps the delivered ticks in the text colour; 4 and 5 are highlighted in blue (spec part 1 §9).
  return <DoneAll {...props} sx={{ color: state === 'played' ? '#2196f3' : 'text.primary' }} />;
}

/** The message a reply points to, inside the bubble and above the composer. */
export function QuotedBlock({ quoted, testId }: { quoted: NonNullable<PresentedMessage['quotedMsg']>; testId?: string }) {
  const { t } = useTranslation();
  const author = quoted.fromMe ? t('conversation.message.you') : quoted.contact.name;
  const text = quoted.isDeleted ? t('conversation.message.deleted') : quoted.body || (quoted.mediaType && quoted.mediaType !== 'chat' ? t(`conversation.message.${quoted.mediaType === 'image' || quoted.mediaType === 'audio' || quoted.mediaType === 'video' ? quoted.mediaType : 'file'}`) : '');
  return (
    <Box data-testid={testId} sx={{ borderLeft: 4, borderColor: quoted.fromMe ? 'primary.main' : 'success.main', bgcolor: 'action.hover', borderRadius: 1, px: 1, py: 0.5, mb: 0.5, overflow: 'hidden' }}>
      <Typography variant="caption" sx={{ fontWeight: 600, display: 'block', color: quoted.fromMe ? 'primary.main' : 'success.main' }}>
        {author}
      </Typography>
      <Typography variant="body2" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {text}
      </Typography>
    </Box>
  );
}

export interface MessageBubbleProps {
  message: PresentedMessage;
  showSender: boolean;
  /** Absent in the read-only preview: no menu. */
  onReply?(message: PresentedMessage): void;
  onDelete?(message: PresentedMessage): void;
  /** Own messages only: sent by this user (or, for admins, by anyone of the company). */
  canDelete?: boolean;
  /** A failed send: sends it again. Absent in the read-only preview. */
  onRetry?(message: PresentedMessage): void;
  /** Own text within WhatsApp's edit window (`canEditMessage`): opens the edit dialog. */
  onEdit?(message: PresentedMessage): void;
  canEdit?: boolean;
  /** Opens the reactions menu at the bubble's menu button. */
  onReact?(message: PresentedMessage, anchor: HTMLElement): void;
  onForward?(message: PresentedMessage): void;
}

/** A send the channel refused: an error icon whose tooltip gives the reason, and a Retry action. */
function SendFailure({ message, onRetry }: { message: PresentedMessage; onRetry?(message: PresentedMessage): void }) {
  const { t, i18n } = useTranslation();
  const code = message.sendError ?? 'ERR_SENDING_WAPP_MSG';
  const reason = i18n.exists(`errors.${code}`) ? t(`errors.${code}`) : code;
  const detail = message.dataJson?.failure?.title;
  const label = t('conversation.message.failed', { reason }) + (detail ? ` (${t('conversation.message.failureDetail', { detail })})` : '');
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }} data-testid="message-failed">
      <Tooltip title={label}>
        <ErrorOutline color="error" fontSize="small" titleAccess={label} data-testid="message-failed-icon" tabIndex={0} />
      </Tooltip>
      {onRetry ? (
        <Button size="small" color="error" data-testid="message-retry" onClick={() => onRetry(message)} sx={{ minWidth: 0, py: 0, px: 0.5, fontSize: 12 }}>
          {t('conversation.message.retry')}
        </Button>
      ) : null}
    </Stack>
  );
}

export function MessageBubble({ message, showSender, onReply, onDelete, onRetry, canDelete: mayDelete = false, onEdit, canEdit = false, onReact, onForward }: MessageBubbleProps) {
  const { t } = useTranslation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  if (message.mediaType === 'call_log') {
    return (
      <Stack direction="row" spacing={1} data-testid="message-item" data-message-id={message.id} data-from-me={String(message.fromMe)} data-call sx={{ alignSelf: 'center', alignItems: 'center', my: 0.5, px: 1.5, py: 0.5, borderRadius: 2, bgcolor: 'background.paper', boxShadow: 1 }}>
        <PhoneMissed color="error" fontSize="small" />
        <Typography variant="body2">{t('conversation.message.missedCall', { time: formatTime(message.createdAt) })}</Typography>
      </Stack>
    );
  }

  const automated = message.source === 'bot' || message.source === 'system';
  const showMenu = Boolean(onReply || onDelete || onForward || onReact) && !message.isDeleted;
  const canDelete = Boolean(onDelete) && message.fromMe && mayDelete;
  const data = message.isDeleted ? null : (message.dataJson ?? null);
  const text = message.isDeleted || bodyIsMediaName(message) ? '' : message.body;
  const special = data ? detailText(data, t) : null;
  const textual = message.mediaType === 'locationMessage' || message.mediaType === 'vcard' || message.mediaType === 'contactMessage' ? '' : (special ?? text);
  const reactions = data?.reactions ?? [];

  return (
    <Box
      data-testid="message-item"
      data-message-id={message.id}
      data-from-me={String(message.fromMe)}
      data-source={message.source}
      sx={{
        alignSelf: message.fromMe ? 'flex-end' : 'flex-start',
        maxWidth: { xs: '88%', sm: '70%' },
        minWidth: 100,
        position: 'relative',
        my: 0.25,
        mb: reactions.length ? 2 : 0.25,
        pl: 1.25,
        pr: showMenu ? 3.5 : 1.25,
        pt: 0.75,
        pb: 0.5,
        borderRadius: 2,
        boxShadow: 1,
        bgcolor: automated ? 'action.selected' : message.fromMe ? (theme) => (theme.palette.mode === 'dark' ? '#005c4b' : '#dcf8c6') : 'background.paper',
        border: automated ? 1 : 0,
        borderStyle: 'dashed',
        borderColor: 'divider',
        '&:hover .message-menu, & .message-menu:focus-visible': { opacity: 1 },
      }}
    >
      {showMenu ? (
        <IconButton
          ref={menuButton}
          className="message-menu"
          size="small"
          data-testid="message-menu"
          aria-label={t('conversation.message.menu')}
          aria-haspopup="menu"
          onClick={(event) => setMenuAnchor(event.currentTarget)}
          sx={{ position: 'absolute', top: 0, right: 0, p: 0.25, opacity: { xs: 1, md: 0.4 } }}
        >
          <ExpandMore fontSize="small" />
        </IconButton>
      ) : null}
      {automated ? (
        <Chip size="small" icon={<SmartToyOutlined />} label={t(`conversation.message.${message.source === 'bot' ? 'bot' : 'system'}`)} sx={{ mb: 0.5, height: 20 }} data-testid="message-automated" />
      ) : null}
      {showSender && message.senderName ? (
        <Typography variant="caption" sx={{ display: 'block', fontWeight: 600, color: 'secondary.main' }}>
          {message.senderName}
        </Typography>
      ) : null}
      {data ? <MessageOrigin data={data} /> : null}
      {message.quotedMsg ? <QuotedBlock quoted={message.quotedMsg} /> : null}
      {message.isDeleted ? (
        <Typography variant="body2" data-testid="message-deleted" sx={{ fontStyle: 'italic', color: 'text.secondary', display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Block fontSize="inherit" />
          {t('conversation.message.deleted')}
        </Typography>
      ) : data?.media ? (
        <MediaState media={data.media} />
      ) : (
        <MessageMedia message={message} />
      )}
      {data?.order ? <OrderCard order={data.order} /> : null}
      {data?.poll ? <PollCard poll={data.poll} /> : null}
      {data?.event ? <EventCard event={data.event} /> : null}
      {textual ? (
        <Typography variant="body2" component="div" data-testid="message-body" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', mt: message.mediaUrl ? 0.5 : 0 }}>
          <FormattedText text={textual} />
        </Typography>
      ) : null}
      <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center', color: message.fromMe && !automated ? OWN_META_COLOR : 'text.secondary', fontSize: 12, mt: 0.25 }}>
        {message.isEdited ? (
          <Typography variant="caption" data-testid="message-edited" sx={{ fontStyle: 'italic' }}>
            {t('conversation.message.edited')}
          </Typography>
        ) : null}
        <Typography variant="caption" component="time" dateTime={message.createdAt}>
          {formatTime(message.createdAt)}
        </Typography>
        {message.fromMe && message.sendStatus === 'failed' ? <SendFailure message={message} onRetry={onRetry} /> : message.fromMe ? <AckIcon ack={message.ack} /> : null}
      </Stack>
      <Reactions reactions={reactions} />
      <Menu anchorEl={menuAnchor} open={Boolean(menuAnchor)} onClose={() => setMenuAnchor(null)}>
        {onReply ? (
          <MenuItem
            data-testid="message-reply"
            onClick={() => {
              setMenuAnchor(null);
              onReply(message);
            }}
          >
            {t('conversation.message.reply')}
          </MenuItem>
        ) : null}
        {onReact && canReactTo(message) ? (
          <MenuItem
            data-testid="message-react"
            onClick={() => {
              setMenuAnchor(null);
              if (menuButton.current) onReact(message, menuButton.current);
            }}
          >
            {t('conversation.message.react')}
          </MenuItem>
        ) : null}
        {onForward ? (
          <MenuItem
            data-testid="message-forward"
            onClick={() => {
              setMenuAnchor(null);
              onForward(message);
            }}
          >
            {t('conversation.message.forward')}
          </MenuItem>
        ) : null}
        {onEdit && canEdit ? (
          <MenuItem
            data-testid="message-edit"
            onClick={() => {
              setMenuAnchor(null);
              onEdit(message);
            }}
          >
            {t('conversation.message.edit')}
          </MenuItem>
        ) : null}
        {canDelete ? (
          <MenuItem
            data-testid="message-delete"
            onClick={() => {
              setMenuAnchor(null);
              onDelete?.(message);
            }}
          >
            {t('conversation.message.delete')}
          </MenuItem>
        ) : null}
      </Menu>
    </Box>
  );
}
