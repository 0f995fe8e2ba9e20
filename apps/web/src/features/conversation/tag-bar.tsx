import type { PresentedTag, PresentedTagSummary, PresentedTicket, PresentedTicketTag } from '@atende/shared';
import { Autocomplete, Box, Chip, createFilterOptions, TextField } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';
import { ticketKey } from './conversation-queries';

/** Spec part 2 §5: a tag's name has at least 3 characters. */
const TAG_NAME_MIN = 3;

type TagOption = PresentedTicketTag | { inputValue: string };
const filter = createFilterOptions<TagOption>();

const isNew = (option: TagOption | string): option is { inputValue: string } | string => typeof option === 'string' || 'inputValue' in option;

/** The ticket's tags: pick existing ones or type a new one (created on the spot), saved with POST /tags/sync. */
export function TagBar({ ticket }: { ticket: PresentedTicket }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const tags = useQuery({ queryKey: ['tags', 'list'], queryFn: () => api.get<PresentedTagSummary[]>('/tags/list'), staleTime: 60_000 });

  const save = async (values: (TagOption | string)[]) => {
    setSaving(true);
    try {
      const chosen: PresentedTicketTag[] = [];
      for (const value of values) {
        if (!isNew(value)) {
          chosen.push(value);
          continue;
        }
        const name = (typeof value === 'string' ? value : value.inputValue).trim();
        if (name.length < TAG_NAME_MIN) {
          toastError(new Error(t('conversation.tags.tooShort')));
          continue;
        }
        const existing = tags.data?.find((tag) => tag.name.toLowerCase() === name.toLowerCase());
        chosen.push(existing ?? (await api.post<PresentedTag>('/tags', { name })));
      }
      const unique = [...new Map(chosen.map((tag) => [tag.id, tag])).values()];
      await api.post('/tags/sync', { ticketId: ticket.id, tags: unique.map((tag) => ({ id: tag.id })) });
      queryClient.setQueryData<PresentedTicket>(ticketKey(ticket.uuid), (current) => (current ? { ...current, tags: unique } : current));
      void queryClient.invalidateQueries({ queryKey: ['tags'] });
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box sx={{ px: 1, py: 0.5, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }} data-testid="tag-bar">
      <Autocomplete<TagOption, true, false, true>
        multiple
        freeSolo
        size="small"
        disabled={saving}
        options={tags.data ?? []}
        value={ticket.tags}
        loading={tags.isLoading}
        onChange={(_, values) => void save(values)}
        isOptionEqualToValue={(a, b) => !isNew(a) && !isNew(b) && a.id === b.id}
        getOptionLabel={(option) => (typeof option === 'string' ? option : 'inputValue' in option ? t('conversation.tags.create', { name: option.inputValue }) : option.name)}
        filterOptions={(options, state) => {
          const found = filter(options, state);
          const typed = state.inputValue.trim();
          const exists = options.some((o) => !isNew(o) && o.name.toLowerCase() === typed.toLowerCase());
          if (typed.length >= TAG_NAME_MIN && !exists) found.push({ inputValue: typed });
          return found;
        }}
        renderValue={(values, getItemProps) =>
          values.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            const tag = isNew(option) ? null : option;
            return <Chip key={key} {...itemProps} size="small" label={tag?.name ?? String(option)} sx={{ bgcolor: tag?.color || undefined, color: tag?.color ? 'common.white' : undefined }} data-testid="ticket-tag" />;
          })
        }
        renderInput={(params) => (
          <TextField {...params} variant="standard" placeholder={t('conversation.tags.placeholder')} slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'aria-label': t('conversation.tags.label'), 'data-testid': 'tag-input' } }} />
        )}
      />
    </Box>
  );
}
