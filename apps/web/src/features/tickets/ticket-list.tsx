import type { PresentedTicket } from '@atende/shared';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoadMoreNearEnd } from '../../components/load-more';
import { TicketListItem } from './ticket-list-item';

/** Spec part 1 §4: the next page loads within 100 px of the bottom. */
const LOAD_MORE_THRESHOLD_PX = 100;
const ESTIMATED_ROW_PX = 108;

/**
 * What the list shows of its query: a snapshot that changes only with them, so the manager can
 * hand it over deferred (`useDeferredValue`) and a list's answer renders its rows in slices.
 */
export interface TicketListView {
  /** Which list this is (a fresh scroll position for each). */
  key: string;
  tickets: PresentedTicket[];
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
}

interface TicketListProps {
  list: TicketListView;
  selectedUuid: string | undefined;
  narrow: boolean;
  canPeek: boolean;
  onPeek(ticket: PresentedTicket): void;
  emptyText: string;
  emptyHint?: string;
}

const pulse = keyframes`
  50% { opacity: 0.4; }
`;

/**
 * Five placeholder rows while the first page loads. Plain elements under one style (twenty
 * MUI Skeletons were twenty components and styles to mount and unmount on a phone's first load).
 */
function LoadingRows() {
  return (
    <Box
      data-testid="tickets-loading"
      aria-busy="true"
      sx={{
        p: 1.5,
        display: 'flex',
        flexDirection: 'column',
        gap: 2,
        '& .row': { display: 'flex', gap: 1.5 },
        '& .avatar, & .line': { bgcolor: 'action.hover', animation: `${pulse} 2s ease-in-out 0.5s infinite` },
        '& .avatar': { width: 44, height: 44, borderRadius: '50%', flexShrink: 0 },
        '& .lines': { flex: 1, display: 'flex', flexDirection: 'column', gap: 0.75, pt: 0.5 },
        '& .line': { height: 10, borderRadius: 1 },
      }}
    >
      {[0, 1, 2, 3, 4].map((row) => (
        <div key={row} className="row">
          <div className="avatar" />
          <div className="lines">
            <div className="line" style={{ width: '60%' }} />
            <div className="line" style={{ width: '90%' }} />
            <div className="line" style={{ width: '40%' }} />
          </div>
        </div>
      ))}
    </Box>
  );
}

/**
 * A ticket list that stays smooth with thousands of rows: only the rows in view
 * are rendered (rows differ in height with their tags, so each is measured).
 */
export const TicketList = memo(function TicketList({ list, selectedUuid, narrow, canPeek, onPeek, emptyText, emptyHint }: TicketListProps) {
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
});
