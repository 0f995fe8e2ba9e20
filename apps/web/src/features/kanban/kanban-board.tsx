import type { PresentedTicket } from '@atende/shared';
import DragIndicator from '@mui/icons-material/DragIndicator';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import { Box, Button, IconButton, LinearProgress, Menu, MenuItem, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLoadMoreNearEnd } from '../../components/load-more';
import { FormattedText } from '../conversation/format-message';
import { TagChip } from '../tags/tag-chip';
import { formatTicketTime } from '../tickets/ticket-format';
import { laneCards, laneCount, type LaneId } from './kanban-cache';
import { useLaneCards, useMoveCard, type Lane } from './kanban-queries';

const ESTIMATED_CARD_PX = 168;
const CARD_GAP_PX = 8;
/** The drag's payload type: only our cards are dropped on a lane. */
const DRAG_TYPE = 'application/x-atende-ticket';

/** Read by screen readers only (sizes in px: in `sx` a width of 1 is 100%). */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

interface Dragging {
  ticket: PresentedTicket;
  from: LaneId;
}

/** Whether an element is near the viewport (lanes off screen load nothing); true where the browser cannot tell. */
function useSeen<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    }, { rootMargin: '0px 400px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen];
}

function laneName(lane: Lane, untagged: string): string {
  return lane.tag?.name ?? untagged;
}

interface CardProps {
  ticket: PresentedTicket;
  lane: LaneId;
  lanes: Lane[];
  onDragStart(dragging: Dragging): void;
  onDragEnd(): void;
  onMove(ticket: PresentedTicket, from: LaneId, to: LaneId): void;
}

/** A card (spec part 2 §2.4): ticket number, contact name and number, last message, a button to the ticket; moved by drag or by its menu. */
const KanbanCard = memo(function KanbanCard({ ticket, lane, lanes, onDragStart, onDragEnd, onMove }: CardProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const untagged = t('kanban.untagged');
  const destinations = lanes.filter((other) => other.id !== lane);

  const startDrag = (event: DragEvent<HTMLDivElement>) => {
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(DRAG_TYPE, String(ticket.id));
    event.dataTransfer.setData('text/plain', t('kanban.card.title', { id: ticket.id }));
    onDragStart({ ticket, from: lane });
  };

  return (
    <Paper
      variant="outlined"
      draggable
      onDragStart={startDrag}
      onDragEnd={onDragEnd}
      data-testid="kanban-card"
      data-ticket-id={ticket.id}
      aria-label={t('kanban.card.title', { id: ticket.id })}
      role="group"
      sx={{ p: 1.25, cursor: 'grab', borderLeft: 4, borderLeftColor: ticket.queue?.color || 'divider', '&:active': { cursor: 'grabbing' } }}
    >
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <DragIndicator fontSize="small" color="action" aria-hidden titleAccess={t('kanban.card.drag')} />
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {t('kanban.card.title', { id: ticket.id })}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
          {formatTicketTime(ticket.updatedAt)}
        </Typography>
        {destinations.length > 0 ? (
          <Tooltip title={t('kanban.card.moveTo')}>
            <IconButton
              size="small"
              aria-label={t('kanban.card.moveTo')}
              aria-haspopup="menu"
              aria-expanded={menu !== null}
              onClick={(event) => setMenu(event.currentTarget)}
              data-testid="kanban-card-move"
            >
              <DriveFileMoveOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </Stack>
      <Typography variant="body2" sx={{ fontWeight: 500, mt: 0.5 }} noWrap title={ticket.contact.name} data-testid="kanban-card-contact">
        {ticket.contact.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div" noWrap>
        {ticket.contact.number}
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ mt: 0.5, display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', wordBreak: 'break-word', minHeight: '2.86em' }}
        data-testid="kanban-card-message"
      >
        {ticket.lastMessage ? <FormattedText text={ticket.lastMessage.replace(/\s+/g, ' ')} /> : <em>{t('kanban.card.noMessage')}</em>}
      </Typography>
      <Stack direction="row" sx={{ mt: 1, alignItems: 'center', justifyContent: 'flex-end' }}>
        <Button size="small" variant="outlined" onClick={() => void navigate(`/tickets/${ticket.uuid}`)} data-testid="kanban-card-open">
          {t('kanban.card.open')}
        </Button>
      </Stack>
      <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
        {destinations.map((destination) => (
          <MenuItem
            key={String(destination.id)}
            onClick={() => {
              setMenu(null);
              onMove(ticket, lane, destination.id);
            }}
            data-testid={`kanban-move-to-${String(destination.id)}`}
          >
            {t('kanban.card.moveToLane', { lane: laneName(destination, untagged) })}
          </MenuItem>
        ))}
      </Menu>
    </Paper>
  );
});

interface LaneProps {
  lane: Lane;
  lanes: Lane[];
  showAll: boolean;
  dragging: Dragging | null;
  onDragStart(dragging: Dragging): void;
  onDragEnd(): void;
  onMove(ticket: PresentedTicket, from: LaneId, to: LaneId): void;
}

/**
 * A lane: its header (name and total), and its cards loaded a page at a time as
 * the lane scrolls, only those in view rendered (a lane may hold thousands).
 */
function KanbanLane({ lane, lanes, showAll, dragging, onDragStart, onDragEnd, onMove }: LaneProps) {
  const { t } = useTranslation();
  const [laneRef, seen] = useSeen<HTMLDivElement>();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [over, setOver] = useState(false);
  const query = useLaneCards(lane.id, showAll, seen);
  const cards = laneCards(query.data);
  const count = laneCount(query.data);
  const name = laneName(lane, t('kanban.untagged'));
  const { isFetchingNextPage } = query;

  // TanStack Virtual keeps its own mutable state; the React compiler must not memoize around it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_PX,
    gap: CARD_GAP_PX,
    overscan: 4,
    getItemKey: (index) => cards[index]?.id ?? index,
  });

  const loadMoreIfNearEnd = useLoadMoreNearEnd(scrollRef, query, cards.length);

  const droppable = dragging !== null && dragging.from !== lane.id;
  const onDragOver = (event: DragEvent<HTMLElement>) => {
    if (!droppable || !event.dataTransfer.types.includes(DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (!over) setOver(true);
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    setOver(false);
    if (!droppable || !dragging) return;
    event.preventDefault();
    onMove(dragging.ticket, dragging.from, lane.id);
  };

  return (
    <Paper
      ref={laneRef}
      component="section"
      variant="outlined"
      aria-label={t('kanban.laneCount', { name, count })}
      data-testid="kanban-lane"
      data-lane-id={String(lane.id)}
      data-lane-name={name}
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      sx={{
        flex: '0 0 auto',
        width: { xs: 'calc(100vw - 48px)', sm: 300 },
        maxWidth: 340,
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        scrollSnapAlign: 'start',
        bgcolor: (theme) => (theme.palette.mode === 'dark' ? 'background.default' : 'grey.100'),
        borderColor: over ? 'primary.main' : 'divider',
        borderWidth: over ? 2 : 1,
        transition: 'border-color 120ms',
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1.5, py: 1, minHeight: 44, borderBottom: 1, borderColor: 'divider' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {lane.tag ? (
            <TagChip name={lane.tag.name} color={lane.tag.color} />
          ) : (
            <Typography variant="subtitle2" component="h2" noWrap>
              {name}
            </Typography>
          )}
        </Box>
        <Typography variant="caption" color="text.secondary" data-testid="kanban-lane-count" aria-hidden>
          {query.isPending ? '' : count}
        </Typography>
      </Stack>
      {query.isFetching && !query.isFetchingNextPage && !query.isPending ? <LinearProgress sx={{ height: 2 }} /> : <Box sx={{ height: 2 }} />}
      <Box ref={scrollRef} onScroll={loadMoreIfNearEnd} sx={{ flex: 1, minHeight: 0, overflowY: 'auto', p: 1 }} data-testid="kanban-lane-scroll">
        {query.isPending ? (
          <Stack spacing={1} aria-busy="true" data-testid="kanban-lane-loading">
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} variant="rounded" height={ESTIMATED_CARD_PX - 24} />
            ))}
          </Stack>
        ) : cards.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2, textAlign: 'center' }} data-testid="kanban-lane-empty">
            {query.isError ? t('kanban.loadError') : t('kanban.emptyLane')}
          </Typography>
        ) : (
          <Box role="list" sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const ticket = cards[row.index];
              if (!ticket) return null;
              return (
                <Box
                  key={row.key}
                  role="listitem"
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  sx={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}
                >
                  <KanbanCard ticket={ticket} lane={lane.id} lanes={lanes} onDragStart={onDragStart} onDragEnd={onDragEnd} onMove={onMove} />
                </Box>
              );
            })}
          </Box>
        )}
        {isFetchingNextPage ? <LinearProgress aria-label={t('common.loading')} sx={{ mt: 1 }} /> : null}
      </Box>
    </Paper>
  );
}

/** The board: lanes side by side, scrolled sideways (one lane per screen on a phone). */
export function KanbanBoard({ lanes, showAll }: { lanes: Lane[]; showAll: boolean }) {
  const { t } = useTranslation();
  const move = useMoveCard();
  const [dragging, setDragging] = useState<Dragging | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const onMove = useCallback(
    (ticket: PresentedTicket, from: LaneId, to: LaneId) => {
      setDragging(null);
      const destination = lanes.find((lane) => lane.id === to);
      void move(ticket, from, to).then((moved) => {
        if (moved && destination) setAnnouncement(t('kanban.moved', { id: ticket.id, lane: laneName(destination, t('kanban.untagged')) }));
      });
    },
    [lanes, move, t],
  );
  const onDragEnd = useCallback(() => setDragging(null), []);

  return (
    <>
      <Box
        role="region"
        aria-label={t('kanban.board')}
        data-testid="kanban-board"
        sx={{ flex: 1, minHeight: 0, display: 'flex', gap: 1.5, overflowX: 'auto', overflowY: 'hidden', pb: 1, scrollSnapType: { xs: 'x mandatory', sm: 'none' } }}
      >
        {lanes.map((lane) => (
          <KanbanLane key={String(lane.id)} lane={lane} lanes={lanes} showAll={showAll} dragging={dragging} onDragStart={setDragging} onDragEnd={onDragEnd} onMove={onMove} />
        ))}
      </Box>
      <Box role="status" aria-live="polite" sx={visuallyHidden} data-testid="kanban-announcement">
        {announcement}
      </Box>
    </>
  );
}
