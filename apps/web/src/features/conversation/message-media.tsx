import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import { Box, Dialog, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/desk-types';
import { locationLink, parseVcard } from './message-content';

/** What a media message carries besides its text (spec part 1 §3 mediaType). */
export function MessageMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const [fullImage, setFullImage] = useState(false);
  const url = message.mediaUrl;

  if (message.mediaType === 'locationMessage') {
    const href = locationLink(message.body);
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <PlaceOutlined fontSize="small" />
        {href ? (
          <Link href={href} target="_blank" rel="noopener noreferrer" data-testid="message-location">
            {t('conversation.message.openMap')}
          </Link>
        ) : (
          <Typography variant="body2">{t('conversation.message.location')}</Typography>
        )}
      </Stack>
    );
  }
  if (message.mediaType === 'vcard' || message.mediaType === 'contactMessage') {
    const card = parseVcard(message.body);
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="message-vcard">
        <ContactPhoneOutlined />
        <Box>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {card.name || t('conversation.message.contactCard')}
          </Typography>
          {card.number ? <Typography variant="caption">{card.number}</Typography> : null}
        </Box>
      </Stack>
    );
  }
  if (!url) return null;
  const name = message.mediaName ?? t('conversation.message.file');
  switch (message.mediaType) {
    case 'image':
      return (
        <>
          <Box
            component="button"
            type="button"
            onClick={() => setFullImage(true)}
            aria-label={t('conversation.message.openImage')}
            sx={{ p: 0, border: 0, background: 'none', cursor: 'zoom-in', display: 'block' }}
          >
            <Box component="img" src={url} alt={name} loading="lazy" sx={{ maxWidth: '100%', width: 240, maxHeight: 240, objectFit: 'cover', borderRadius: 1, display: 'block' }} />
          </Box>
          <Dialog open={fullImage} onClose={() => setFullImage(false)} maxWidth="lg">
            <Box component="img" src={url} alt={name} onClick={() => setFullImage(false)} sx={{ maxWidth: '100%', maxHeight: '90vh', display: 'block' }} />
          </Dialog>
        </>
      );
    case 'audio':
      return <Box component="audio" controls preload="metadata" src={url} sx={{ maxWidth: '100%', width: 260 }} aria-label={t('conversation.message.audio')} />;
    case 'video':
      return <Box component="video" controls preload="metadata" src={url} sx={{ maxWidth: '100%', width: 260, borderRadius: 1 }} aria-label={t('conversation.message.video')} />;
    default:
      return (
        <Link href={url} download={name} target="_blank" rel="noopener noreferrer" data-testid="message-download" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, wordBreak: 'break-all' }}>
          <DownloadOutlined fontSize="small" aria-hidden />
          <span>{name}</span>
        </Link>
      );
  }
}

/** Whether the text of a message is just its media's name (the spec's client sends the file name as body). */
export function bodyIsMediaName(message: Message): boolean {
  return Boolean(message.mediaUrl) && (message.body === message.mediaName || message.body === '');
}
