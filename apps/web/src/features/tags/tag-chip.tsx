import { Chip, type ChipProps } from '@mui/material';
import { isCssHexColor } from '../queues/queue-colors';

/** Black or white, whichever reads better on `color` (WCAG relative luminance). */
function textColorOn(color: string): '#000' | '#fff' {
  if (!isCssHexColor(color)) return '#000';
  let hex = color.trim().slice(1);
  if (hex.length <= 4) hex = [...hex].map((digit) => digit + digit).join('');
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05): equal at L ≈ 0.179.
  return luminance > 0.179 ? '#000' : '#fff';
}

/** A tag as the spec shows it: its name on a chip of its colour. */
export function TagChip({ name, color, ...props }: { name: string; color: string } & Omit<ChipProps, 'label' | 'color'>) {
  const background = isCssHexColor(color) ? color : undefined;
  return (
    <Chip
      size="small"
      label={name}
      {...props}
      sx={{ bgcolor: background, color: background ? textColorOn(background) : undefined, fontWeight: 500, maxWidth: '100%', ...props.sx }}
    />
  );
}
