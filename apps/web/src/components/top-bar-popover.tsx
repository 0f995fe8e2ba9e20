import { Box, CircularProgress, List, Popover, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The props every top bar popover takes from the bar. */
export interface TopBarPopoverProps {
  anchor: HTMLElement | null;
  open: boolean;
  onClose(): void;
}

/**
 * The frame of the top bar's popovers (notifications, announcements, chats):
 * a title, then a spinner while loading, the empty text, or the scrolling list
 * (`children`); `footer` goes under the list. It fits a phone's screen.
 */
export function TopBarPopover({
  anchor,
  open,
  onClose,
  testId,
  title,
  width,
  maxHeight = 480,
  loading,
  loadingText,
  empty,
  footer,
  children,
}: TopBarPopoverProps & {
  testId: string;
  title: string;
  width: number;
  maxHeight?: number;
  loading: boolean;
  loadingText?: string;
  /** The text shown when the list has nothing; null when it has something. */
  empty: string | null;
  footer?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Popover
      anchorEl={anchor}
      open={open}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { width, maxWidth: 'calc(100vw - 16px)', maxHeight: `min(${maxHeight}px, calc(100vh - 80px))`, display: 'flex', flexDirection: 'column' } } }}
    >
      <Box data-testid={testId} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5, pb: 1 }}>
          {title}
        </Typography>
        {loading ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 2 }} role="status">
            <CircularProgress size={20} aria-label={t('common.loading')} />
            {loadingText ? <Typography color="text.secondary">{loadingText}</Typography> : null}
          </Box>
        ) : empty !== null ? (
          <Typography sx={{ px: 2, pb: 2 }} color="text.secondary" data-testid={`${testId}-empty`}>
            {empty}
          </Typography>
        ) : (
          <List dense disablePadding sx={{ overflowY: 'auto', minHeight: 0 }}>
            {children}
          </List>
        )}
        {footer}
      </Box>
    </Popover>
  );
}
