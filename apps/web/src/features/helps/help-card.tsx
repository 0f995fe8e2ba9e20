import OndemandVideoOutlined from '@mui/icons-material/OndemandVideoOutlined';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlined';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { thumbnailUrl, type Help } from './helps-queries';

/**
 * One help video as a card: the thumbnail (loaded lazily, when the card is near
 * the viewport), the title and the description. When the thumbnail cannot load
 * (offline, the video is gone) a local placeholder takes its place: no broken image.
 */
export function HelpCard({ help, onOpen }: { help: Help; onOpen(help: Help): void }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid="help-card" data-help-id={help.id}>
      <CardActionArea onClick={() => onOpen(help)} aria-label={t('helps.play', { title: help.title })} sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch', justifyContent: 'flex-start' }}>
        <Box sx={{ position: 'relative', aspectRatio: '16 / 9', bgcolor: 'action.hover', overflow: 'hidden' }}>
          {failed ? (
            <Box
              role="img"
              aria-label={t('helps.noThumbnail')}
              data-testid="help-thumbnail-placeholder"
              sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', color: 'text.secondary' }}
            >
              <OndemandVideoOutlined sx={{ fontSize: 56 }} />
            </Box>
          ) : (
            <Box
              component="img"
              src={thumbnailUrl(help.video)}
              alt=""
              loading="lazy"
              decoding="async"
              onError={() => setFailed(true)}
              data-testid="help-thumbnail"
              sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
            />
          )}
          <PlayCircleOutline sx={{ position: 'absolute', right: 8, bottom: 8, fontSize: 36, color: 'common.white', filter: 'drop-shadow(0 0 3px rgba(0,0,0,.6))' }} />
        </Box>
        <CardContent sx={{ flexGrow: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, wordBreak: 'break-word' }} data-testid="help-card-title">
            {help.title}
          </Typography>
          {help.description ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, wordBreak: 'break-word', whiteSpace: 'pre-line' }}>
              {help.description}
            </Typography>
          ) : null}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
