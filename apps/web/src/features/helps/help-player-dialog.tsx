import CloseIcon from '@mui/icons-material/Close';
import { Box, Dialog, DialogTitle, IconButton } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { embedUrl, type Help } from './helps-queries';

/**
 * The embedded player (spec part 2 §2.16): mounted only while a video is open,
 * so the player loads only when shown; Escape (or the close button, or a click
 * outside) closes it and unloads the player with it.
 */
export function HelpPlayerDialog({ help, onClose }: { help: Help; onClose(): void }) {
  const { t } = useTranslation();
  const title = t('helps.playerTitle', { title: help.title });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="help-player-title" data-testid="help-player">
      <DialogTitle id="help-player-title" sx={{ pr: 6, wordBreak: 'break-word' }}>
        {help.title}
        <IconButton aria-label={t('helps.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }} data-testid="help-player-close">
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Box sx={{ position: 'relative', aspectRatio: '16 / 9', bgcolor: 'common.black' }}>
        <Box
          component="iframe"
          src={embedUrl(help.video)}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          data-testid="help-player-frame"
          sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
        />
      </Box>
    </Dialog>
  );
}
