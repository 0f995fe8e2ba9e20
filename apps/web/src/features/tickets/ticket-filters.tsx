import type { PresentedQueueSummary, PresentedTagSummary, PresentedUser } from '@atende/shared';
import { Autocomplete, Box, Checkbox, Chip, ListItemText, MenuItem, Select, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { useDebouncedValue } from '../../components/use-debounced-value';

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

/** The search tab's tag multi-select, each tag in its colour. */
export function TagFilter({ selected, onChange }: { selected: PresentedTagSummary[]; onChange(tags: PresentedTagSummary[]): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const tags = useQuery({ queryKey: ['tags', 'list'], queryFn: () => api.get<PresentedTagSummary[]>('/tags/list') });
  return (
    <Autocomplete
      multiple
      size="small"
      options={tags.data ?? []}
      loading={tags.isPending}
      value={selected}
      onChange={(_, value) => onChange(value)}
      getOptionLabel={(tag) => tag.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={t('tickets.search.noOptions')}
      loadingText={t('common.loading')}
      renderOption={(props, tag) => {
        const { key, ...rest } = props;
        return (
          <Box component="li" key={key} {...rest} sx={{ gap: 1 }}>
            <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: tag.color, flexShrink: 0 }} />
            {tag.name}
          </Box>
        );
      }}
      renderValue={(value, getItemProps) =>
        value.map((tag, index) => {
          const { key, ...rest } = getItemProps({ index });
          return <Chip key={key} {...rest} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: (theme) => theme.palette.getContrastText(tag.color || '#9e9e9e') }} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={t('tickets.search.tags')} />}
      data-testid="tag-filter"
      sx={{ flex: 1, minWidth: 160 }}
    />
  );
}

/** The search tab's user multi-select (admins only), searching users as one types. */
export function UserFilter({ selected, onChange }: { selected: PresentedUser[]; onChange(users: PresentedUser[]): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [input, setInput] = useState('');
  const term = useDebouncedValue(input.trim());
  const users = useQuery({
    queryKey: ['users', 'search', term],
    queryFn: () => api.get<{ users: PresentedUser[]; hasMore: boolean }>('/users', { searchParam: term, pageNumber: 1 }),
  });
  return (
    <Autocomplete
      multiple
      size="small"
      options={users.data?.users ?? []}
      loading={users.isFetching}
      value={selected}
      onChange={(_, value) => onChange(value)}
      inputValue={input}
      onInputChange={(_, value, reason) => {
        if (reason !== 'reset') setInput(value);
      }}
      filterOptions={(options) => options}
      getOptionLabel={(user) => user.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={t('tickets.search.noOptions')}
      loadingText={t('common.loading')}
      renderValue={(value, getItemProps) =>
        value.map((user, index) => {
          const { key, ...rest } = getItemProps({ index });
          return <Chip key={key} {...rest} size="small" label={user.name} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={t('tickets.search.users')} />}
      data-testid="user-filter"
      sx={{ flex: 1, minWidth: 160 }}
    />
  );
}
