import type { PresentedTagSummary, PresentedUser } from '@atende/shared';
import { Autocomplete, Box, Chip, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { useDebouncedValue } from '../../components/use-debounced-value';

/*
 * The search tab's filters, loaded when the tab is first opened (tickets-manager.tsx): MUI's
 * Autocomplete and popper.js are not part of the tickets page's first screen.
 */

interface SearchFiltersProps {
  tags: PresentedTagSummary[];
  onTags(tags: PresentedTagSummary[]): void;
  users: PresentedUser[];
  onUsers(users: PresentedUser[]): void;
  /** The user filter is an admin's. */
  withUsers: boolean;
}

export default function SearchFilters({ tags, onTags, users, onUsers, withUsers }: SearchFiltersProps) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <TagFilter selected={tags} onChange={onTags} />
      {withUsers ? <UserFilter selected={users} onChange={onUsers} /> : null}
    </Box>
  );
}

/** The search tab's tag multi-select, each tag in its colour. */
function TagFilter({ selected, onChange }: { selected: PresentedTagSummary[]; onChange(tags: PresentedTagSummary[]): void }) {
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
function UserFilter({ selected, onChange }: { selected: PresentedUser[]; onChange(users: PresentedUser[]): void }) {
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
