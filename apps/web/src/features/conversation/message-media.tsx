import type { PresentedMessage } from '@atende/shared';
import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import { Box, Dialog, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../i18n/dates';
import { locationLink, parseVcard } from './message-content';
import { LiveLocation } from './message-details';

/** What a media message carries besides its text (spec part 1 §3 mediaType). */
export function MessageMedia({ message }: { message: PresentedMessage }) {
  const { t } = useTranslation();
  const [fullImage, setFullImage] = useState(false);
  const url = message.mediaUrl;

  const data = message.dataJson;
  if (message.mediaType === 'locationMessage') {
    const href = locationLink(message.body);
    const place = [data?.location?.name, data?.location?.address].filter(Boolean).join(' · ');
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <PlaceOutlined fontSize="small" />
        <Box>
          {place ? <Typography variant="body2">{place}</Typography> : null}
          {href ? (
            <Link href={href} target="_blank" rel="noopener noreferrer" data-testid="message-location">
              {t('conversation.message.openMap')}
            </Link>
          ) : (
            <Typography variant="body2">{t('conversation.message.location')}</Typography>
          )}
          {data?.live ? <LiveLocation live={data.live} /> : null}
        </Box>
      </Stack>
    );
  }
  if (message.mediaType === 'vcard' || message.mediaType === 'contactMessage') {
    // Every card, with every phone and e-mail, when the channel gave them whole.
    const cards = data?.contacts?.length
      ? data.contacts.map((contact) => ({
          name: contact.name,
          lines: [
            ...(contact.organization ? [contact.organization] : []),
            ...contact.phones.map((phone) => phone.phone),
            ...(contact.emails ?? []).map((email) => email.email),
            ...(contact.addresses ?? []).map((address) => address.address),
            ...(contact.urls ?? []).map((url) => url.url),
            ...(contact.birthday ? [t('conversation.message.birthday', { date: formatDate(contact.birthday) })] : []),
          ],
        }))
      : [parseVcard(message.body)].map((card) => ({ name: card.name, lines: card.number ? [card.number] : [] }));
    return (
      <Stack spacing={1}>
        {cards.map((card, index) => (
          <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="message-vcard">
            <ContactPhoneOutlined />
            <Box>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {card.name || t('conversation.message.contactCard')}
              </Typography>
              {card.lines.map((line) => (
                <Typography key={line} variant="caption" sx={{ display: 'block' }}>
                  {line}
                </Typography>
              ))}
            </Box>
          </Stack>
        ))}
      </Stack>
    );
  }
  if (!url) return null;
  const name = message.mediaName ?? t('conversation.message.file');
  switch (message.mediaType) {
    case 'image':
      if (data?.sticker) return <Box component="img" src={url} alt={name} loading="lazy" data-testid="message-sticker" sx={{ width: 120, height: 120, objectFit: 'contain', display: 'block' }} />;
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
      return <Box component="audio" controls preload="metadata" src={url} sx={{ maxWidth: '100%', width: 260 }} aria-label={t(data?.voice ? 'conversation.message.voiceNote' : 'conversation.message.audio')} />;
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
export function bodyIsMediaName(message: PresentedMessage): boolean {
  return Boolean(message.mediaUrl) && (message.body === message.mediaName || message.body === '');
}
