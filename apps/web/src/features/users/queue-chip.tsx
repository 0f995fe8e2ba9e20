import type { PresentedQueueSummary } from '@atende/shared';
import { Chip, useTheme } from '@mui/material';
import { isCssHexColor } from '../queues/queue-colors';

/** A queue as a chip in its own colour, with text that stays readable on it (light and dark themes). */
export function QueueChip({ queue, onDelete }: { queue: PresentedQueueSummary; onDelete?(): void }) {
  const theme = useTheme();
  const color = isCssHexColor(queue.color) ? queue.color : theme.palette.grey[500];
  return (
    <Chip
      size="small"
      label={queue.name}
      onDelete={onDelete}
      onMouseDown={onDelete ? (event) => event.stopPropagation() : undefined}
      sx={{ bgcolor: color, color: theme.palette.getContrastText(color), maxWidth: '100%' }}
      data-testid="queue-chip"
    />
  );
}
