import { Box, Popper } from '@mui/material';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';

export interface TooltipPopupProps {
  id: string;
  anchor: HTMLElement | null;
  placement: 'bottom' | 'top' | 'left' | 'right';
  title: ReactNode;
}

/** The shown tooltip of `Tooltip` (tooltip.tsx): a Popper whose root is the `role="tooltip"` element, looking as MUI's. */
export function TooltipPopup({ id, anchor, placement, title }: TooltipPopupProps) {
  return (
    <Popper
      id={id}
      open
      anchorEl={anchor}
      placement={placement}
      modifiers={[{ name: 'offset', options: { offset: [0, 14] } }]}
      sx={{ zIndex: (theme) => theme.zIndex.tooltip, pointerEvents: 'none' }}
    >
      <Box
        sx={(theme) => ({
          bgcolor: alpha(theme.palette.grey[700], 0.92),
          color: theme.palette.common.white,
          borderRadius: 1,
          px: 1,
          py: 0.5,
          maxWidth: 300,
          overflowWrap: 'break-word',
          fontFamily: theme.typography.fontFamily,
          fontSize: theme.typography.pxToRem(11),
          fontWeight: theme.typography.fontWeightMedium,
        })}
      >
        {title}
      </Box>
    </Popper>
  );
}
