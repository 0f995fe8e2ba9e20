import type { PresentedQueueSummary } from '@atende/shared';
import { Checkbox, ListItemText, MenuItem, Select } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The options bar's queue multi-select with checkboxes (spec part 1 §2). */
export function QueueFilter({ queues, selected, onChange }: { queues: PresentedQueueSummary[]; selected: number[]; onChange(ids: number[]): void }) {
  const { t } = useTranslation();
  const label = (ids: number[]) => {
    if (queues.length === 0) return t('tickets.options.noQueues');
    if (ids.length === queues.length) return t('tickets.options.allQueues');
    if (ids.length === 1) return queues.find((q) => q.id === ids[0])?.name ?? '';
    return t('tickets.options.queuesSelected', { count: ids.length });
  };
  return (
    <Select<number[]>
      multiple
      size="small"
      displayEmpty
      value={selected}
      onChange={(event) => {
        const value = event.target.value;
        onChange(typeof value === 'string' ? value.split(',').map(Number) : value);
      }}
      renderValue={label}
      disabled={queues.length === 0}
      inputProps={{ 'aria-label': t('tickets.options.queues') }}
      data-testid="queue-filter"
      sx={{ minWidth: 140, flex: 1, maxWidth: 220 }}
    >
      {queues.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} dense>
          <Checkbox size="small" checked={selected.includes(queue.id)} sx={{ color: queue.color, '&.Mui-checked': { color: queue.color } }} />
          <ListItemText primary={queue.name} />
        </MenuItem>
      ))}
    </Select>
  );
}
