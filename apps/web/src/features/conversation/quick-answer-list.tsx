import type { PresentedQuickMessage } from '@atende/shared';
import { ListSubheader, MenuItem, MenuList, Paper } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { filterQuickAnswers, quickAnswerLabel, quickAnswerTerm } from './quick-answers';

/** Quick messages matching what follows the leading '/' (spec part 1 §2, §9). */
export function useQuickAnswers(input: string): PresentedQuickMessage[] {
  const { api } = useSession();
  const wanted = quickAnswerTerm(input) !== null;
  const query = useQuery({
    queryKey: ['quick-messages', 'list'],
    queryFn: () => api.get<PresentedQuickMessage[]>('/quick-messages/list'),
    enabled: wanted,
    staleTime: 60_000,
  });
  return useMemo(() => (wanted ? filterQuickAnswers(input, query.data ?? []) : []), [wanted, input, query.data]);
}

export function QuickAnswerList({ options, active, onPick }: { options: PresentedQuickMessage[]; active: number; onPick(option: PresentedQuickMessage): void }) {
  const { t } = useTranslation();
  if (options.length === 0) return null;
  return (
    <Paper elevation={6} sx={{ position: 'absolute', bottom: '100%', left: 0, right: 0, mb: 0.5, maxHeight: 240, overflowY: 'auto', zIndex: 2 }}>
      <MenuList dense id="quick-answers" role="listbox" aria-label={t('conversation.composer.quickAnswers')} subheader={<ListSubheader>{t('conversation.composer.quickAnswers')}</ListSubheader>}>
        {options.map((option, index) => (
          <MenuItem
            key={option.id}
            role="option"
            selected={index === active}
            aria-selected={index === active}
            data-testid="quick-answer-option"
            // mousedown, not click: the input must not lose focus first.
            onMouseDown={(event) => {
              event.preventDefault();
              onPick(option);
            }}
          >
            {quickAnswerLabel(option)}
          </MenuItem>
        ))}
      </MenuList>
    </Paper>
  );
}
