import type { PresentedTicket } from '@atende/shared';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import { Box, LinearProgress, Skeleton, Stack, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoadMoreNearEnd } from '../../components/list-page-parts';
import { TicketListItem } from './ticket-list-item';
import type { useTicketList } from './use-ticket-list';

/** Spec part 1 §4: the next page loads within 100 px of the bottom. */
const LOAD_MORE_THRESHOLD_PX = 100;
const ESTIMATED_ROW_PX = 108;

interface TicketListProps {
  list: ReturnType<typeof useTicketList>;
  selectedUuid: string | undefined;
  narrow: boolean;
  canPeek: boolean;
  onPeek(ticket: PresentedTicket): void;
  emptyText: string;
  emptyHint?: string;
}

function LoadingRows() {
  return (
    <Stack data-testid="tickets-loading" sx={{ p: 1.5 }} spacing={2} aria-busy="true">
      {[0, 1, 2, 3, 4].map((row) => (
        <Box key={row} sx={{ display: 'flex', gap: 1.5 }}>
          <Skeleton variant="circular" width={44} height={44} />
          <Box sx={{ flex: 1 }}>
            <Skeleton width="60%" />
            <Skeleton width="90%" />
            <Skeleton width="40%" />
          </Box>
        </Box>
      ))}
    </Stack>
  );
}

/**
 * A ticket list that stays smooth with thousands of rows: only the rows in view
 * are rendered (rows differ in height with their tags, so each is measured).
 */
export function TicketList({ list, selectedUuid, narrow, canPeek, onPeek, emptyText, emptyHint }: TicketListProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const { tickets, isFetchingNextPage, isPending, isError } = list;

  // TanStack Virtual keeps its own mutable state; the React compiler must not memoize around it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 6,
    getItemKey: (index) => tickets[index]?.id ?? index,
  });

  const loadMoreIfNearEnd = useLoadMoreNearEnd(scrollRef, list, tickets.length, LOAD_MORE_THRESHOLD_PX);

  if (isPending) return <LoadingRows />;
  if (tickets.length === 0) {
    return (
      <Stack data-testid="tickets-empty" spacing={1} sx={{ alignItems: 'center', justifyContent: 'center', flex: 1, p: 4, textAlign: 'center', color: 'text.secondary' }}>
        <InboxOutlinedIcon fontSize="large" />
        <Typography variant="body2">{isError ? t('errors.ERR_INTERNAL_SERVER_ERROR') : emptyText}</Typography>
        {emptyHint && !isError ? <Typography variant="caption">{emptyHint}</Typography> : null}
      </Stack>
    );
  }

  return (
    <Box
      ref={scrollRef}
      onScroll={loadMoreIfNearEnd}
      data-testid="ticket-list"
      role="list"
      aria-label={t('tickets.list.label')}
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowX: 'hidden' }}
    >
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const ticket = tickets[row.index];
          if (!ticket) return null;
          return (
            <Box
              key={row.key}
              role="listitem"
              data-index={row.index}
              ref={virtualizer.measureElement}
              sx={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}
            >
              <TicketListItem ticket={ticket} selected={ticket.uuid === selectedUuid} narrow={narrow} canPeek={canPeek} onPeek={onPeek} />
            </Box>
          );
        })}
      </Box>
      {isFetchingNextPage ? <LinearProgress aria-label={t('tickets.list.loadingMore')} /> : null}
    </Box>
  );
}
