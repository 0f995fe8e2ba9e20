import type { PresentedMessage, PresentedSticker } from '@atende/shared';
import Close from '@mui/icons-material/Close';
import StickyNote2Outlined from '@mui/icons-material/StickyNote2Outlined';
import { Box, Button, CircularProgress, FormControlLabel, IconButton, Popover, Stack, Switch, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';
import { storeMessages } from './conversation-queries';

const STICKERS_KEY = ['stickers'] as const;

/**
 * The company's saved stickers (issue 32): a grid to send one into the ticket with a click,
 * an upload of a new one (the agent's own, or shared with the company), and delete of those
 * the agent may remove (their own and the shared ones, as the server allows).
 */
export function StickerButton({ ticketId, disabled }: { ticketId: number; disabled?: boolean }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [shared, setShared] = useState(false);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const stickers = useQuery({ queryKey: STICKERS_KEY, queryFn: () => api.get<PresentedSticker[]>('/stickers'), enabled: Boolean(anchor) });

  const send = async (sticker: PresentedSticker) => {
    setAnchor(null);
    try {
      const sent = await api.post<PresentedMessage[]>(`/messages/${ticketId}`, { body: '', stickerId: sticker.id });
      storeMessages(queryClient, ticketId, sent);
    } catch (error) {
      toastError(error);
    }
  };
  const add = async (file: File) => {
    setBusy(true);
    try {
      const form = new FormData();
      form.append('sticker', file, file.name);
      form.append('isShared', String(shared));
      await api.post<PresentedSticker>('/stickers', form);
      await queryClient.invalidateQueries({ queryKey: STICKERS_KEY });
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (sticker: PresentedSticker) => {
    try {
      await api.delete(`/stickers/${sticker.id}`);
      await queryClient.invalidateQueries({ queryKey: STICKERS_KEY });
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <>
      <IconButton aria-label={t('conversation.stickers.open')} disabled={disabled} onClick={(event) => setAnchor(event.currentTarget)} data-testid="composer-stickers">
        <StickyNote2Outlined />
      </IconButton>
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'top', horizontal: 'left' }} transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <Box sx={{ width: { xs: 280, sm: 320 }, p: 1.5 }} data-testid="sticker-picker">
          {stickers.isPending ? (
            <CircularProgress size={24} aria-label={t('common.loading')} />
          ) : (stickers.data ?? []).length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('conversation.stickers.empty')}
            </Typography>
          ) : (
            <Box component="ul" sx={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 1, listStyle: 'none', m: 0, p: 0, maxHeight: 260, overflowY: 'auto' }}>
              {(stickers.data ?? []).map((sticker) => (
                <Box component="li" key={sticker.id} sx={{ position: 'relative' }}>
                  <Box
                    component="button"
                    type="button"
                    onClick={() => void send(sticker)}
                    aria-label={t('conversation.stickers.send', { name: sticker.name })}
                    data-testid="sticker-send"
                    sx={{ p: 0.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'transparent', cursor: 'pointer', width: '100%', aspectRatio: '1' }}
                  >
                    <Box component="img" src={sticker.url} alt="" loading="lazy" sx={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }} />
                  </Box>
                  <IconButton
                    size="small"
                    aria-label={t('conversation.stickers.delete', { name: sticker.name })}
                    onClick={() => void remove(sticker)}
                    data-testid="sticker-delete"
                    sx={{ position: 'absolute', top: -8, right: -8, p: 0.25, bgcolor: 'background.paper', boxShadow: 1 }}
                  >
                    <Close sx={{ fontSize: 14 }} />
                  </IconButton>
                </Box>
              ))}
            </Box>
          )}
          <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center', justifyContent: 'space-between' }}>
            <FormControlLabel control={<Switch size="small" checked={shared} onChange={(event) => setShared(event.target.checked)} />} label={<Typography variant="caption">{t('conversation.stickers.shared')}</Typography>} />
            <Button size="small" onClick={() => fileInput.current?.click()} disabled={busy} data-testid="sticker-add">
              {busy ? <CircularProgress size={16} aria-label={t('common.loading')} /> : t('conversation.stickers.add')}
            </Button>
          </Stack>
          <input
            ref={fileInput}
            type="file"
            accept="image/webp,image/png,image/jpeg,image/gif"
            hidden
            data-testid="sticker-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void add(file);
            }}
          />
        </Box>
      </Popover>
    </>
  );
}
