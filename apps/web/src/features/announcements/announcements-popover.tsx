import type { PresentedAnnouncement } from '@atende/shared';
import { Box, ListItem, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { TopBarPopover, type TopBarPopoverProps } from '../../components/top-bar-popover';
import { formatDate } from '../../i18n';
import { PRIORITY_COLOR } from './announcement-priority';
import { announcementKeys, useAnnouncementEvent } from './use-unread-announcements';

/**
 * The top bar's announcements (spec part 1 §2, §3): the active ones, newest first,
 * with their priority colour and image, live through `company-announcement`.
 * Opening it marks them seen. Loaded on the first open (React.lazy).
 */
export default function AnnouncementsPopover({ anchor, open, onClose }: TopBarPopoverProps) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: announcementKeys.active,
    queryFn: () => api.get<{ records: PresentedAnnouncement[]; hasMore: boolean }>('/announcements', { active: true, pageNumber: 1 }),
  });
  const markSeen = useCallback(() => {
    api.post('/announcements/read').then(
      () => queryClient.setQueryData(announcementKeys.unread, { count: 0 }),
      () => undefined,
    );
  }, [api, queryClient]);
  useAnnouncementEvent(() => {
    void queryClient.invalidateQueries({ queryKey: announcementKeys.active });
    // Seen as it arrives while the popover is open.
    if (open) markSeen();
  });
  useEffect(() => {
    if (open) markSeen();
  }, [open, markSeen]);
  const records = (list.data?.records ?? []).filter((announcement) => announcement.status);

  return (
    <TopBarPopover
      anchor={anchor}
      open={open}
      onClose={onClose}
      testId="announcements-popover"
      title={t('announcements.popover.title')}
      width={380}
      maxHeight={520}
      loading={list.isPending}
      empty={records.length === 0 ? t('announcements.popover.empty') : null}
    >
      {records.map((announcement) => (
        <ListItem
          key={announcement.id}
          divider
          data-testid="announcement-item"
          data-priority={announcement.priority}
          sx={{ display: 'block', borderLeft: 4, borderLeftColor: PRIORITY_COLOR[announcement.priority], py: 1 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
            <Typography variant="subtitle2" sx={{ flexGrow: 1, minWidth: 0 }} noWrap>
              {announcement.title}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
              {formatDate(announcement.createdAt)}
            </Typography>
          </Box>
          <Typography variant="caption" sx={{ color: PRIORITY_COLOR[announcement.priority], fontWeight: 600 }}>
            {t(`announcements.priority.${announcement.priority}`)}
          </Typography>
          {announcement.mediaUrl ? (
            <Box component="img" src={announcement.mediaUrl} alt={announcement.mediaName ?? ''} sx={{ display: 'block', maxWidth: '100%', maxHeight: 160, borderRadius: 1, my: 0.5 }} />
          ) : null}
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {announcement.text}
          </Typography>
        </ListItem>
      ))}
    </TopBarPopover>
  );
}
