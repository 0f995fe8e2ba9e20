import { can, type PresentedQueueSummary, type PresentedTagSummary, type PresentedTicket, type PresentedUser } from '@atende/shared';
import AddIcon from '@mui/icons-material/Add';
import CheckBoxOutlinedIcon from '@mui/icons-material/CheckBoxOutlined';
import MoveToInboxOutlinedIcon from '@mui/icons-material/MoveToInboxOutlined';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, Divider, FormControlLabel, InputAdornment, Paper, Switch, TextField, useMediaQuery } from '@mui/material';
import { lazy, memo, Suspense, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { MountWhenOpened } from '../../components/mount-when-opened';
import { TabStrip } from '../../components/tab-strip';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { SlaSortToggle } from '../sla/sla-sort-toggle';
import { QueueFilter } from './ticket-filters';
import type { TicketListParams } from './ticket-list-cache';
import { TicketList, type TicketListView } from './ticket-list';
import { followsTicketToOpen, TICKET_TABS_ATTRIBUTE } from './ticket-actions';
import { useSelectableQueues } from './use-selectable-queues';
import { useTicketCount, useTicketList } from './use-ticket-list';
import { useTicketShortcuts } from './use-ticket-shortcuts';

const NewTicketDialog = lazy(() => import('./new-ticket-dialog').then((m) => ({ default: m.NewTicketDialog })));
const TicketShortcutsDialog = lazy(() => import('./ticket-shortcuts-dialog').then((m) => ({ default: m.TicketShortcutsDialog })));
// The search tab's tag and user filters (Autocomplete): loaded when the tab is first opened.
const SearchFilters = lazy(() => import('./ticket-search-filters'));
const TicketPeekDialog = lazy(() => import('./ticket-peek-dialog').then((m) => ({ default: m.TicketPeekDialog })));

type ManagerTab = 'open' | 'closed' | 'search';
type OpenSubTab = 'open' | 'pending';

function CountBadge({ count, testId }: { count: number; testId: string }) {
  return (
    <Box
      component="span"
      data-testid={testId}
      sx={{ minWidth: 20, height: 20, px: 0.75, borderRadius: 10, bgcolor: 'primary.main', color: 'primary.contrastText', fontSize: 12, lineHeight: '20px', textAlign: 'center' }}
    >
      {count}
    </Box>
  );
}

/** The strips are memoized: the manager re-renders at each answer of its lists and counts, they change with a click. */
const ManagerTabs = memo(function ManagerTabs({ tab, onChange }: { tab: ManagerTab; onChange(tab: ManagerTab): void }) {
  const { t } = useTranslation();
  return (
    <TabStrip
      value={tab}
      onChange={onChange}
      height={56}
      attributes={{ [TICKET_TABS_ATTRIBUTE]: '' }}
      items={[
        { value: 'open', icon: <MoveToInboxOutlinedIcon />, label: t('tickets.tabs.open'), testId: 'tab-open' },
        { value: 'closed', icon: <CheckBoxOutlinedIcon />, label: t('tickets.tabs.closed'), testId: 'tab-closed' },
        { value: 'search', icon: <SearchIcon />, label: t('tickets.tabs.search'), testId: 'tab-search' },
      ]}
    />
  );
});

const OpenSubTabs = memo(function OpenSubTabs({
  subTab,
  onChange,
  openCount,
  pendingCount,
}: {
  subTab: OpenSubTab;
  onChange(subTab: OpenSubTab): void;
  openCount: number;
  pendingCount: number;
}) {
  const { t } = useTranslation();
  const label = (text: string, count: number, testId: string) => (
    <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      {text}
      <CountBadge count={count} testId={testId} />
    </Box>
  );
  return (
    <TabStrip
      value={subTab}
      onChange={onChange}
      height={40}
      iconPosition="start"
      attributes={{ [TICKET_TABS_ATTRIBUTE]: '' }}
      items={[
        { value: 'open', label: label(t('tickets.subtabs.open'), openCount, 'count-open'), testId: 'subtab-open' },
        { value: 'pending', label: label(t('tickets.subtabs.pending'), pendingCount, 'count-pending'), testId: 'subtab-pending' },
      ]}
    />
  );
});

interface ListToolbarProps {
  tab: ManagerTab;
  mayShowAll: boolean;
  showAll: boolean;
  onShowAll(showAll: boolean): void;
  slaSort: boolean;
  onSlaSort(active: boolean): void;
  queues: PresentedQueueSummary[];
  queueIds: number[];
  onQueuesChange(ids: number[]): void;
  onCreate(): void;
}

/** New ticket, "all", the response-time order and the queue filter: memoized like the strips, it changes with a click. */
const ListToolbar = memo(function ListToolbar({ tab, mayShowAll, showAll, onShowAll, slaSort, onSlaSort, queues, queueIds, onQueuesChange, onCreate }: ListToolbarProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
      <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={onCreate} data-testid="new-ticket" sx={{ flexShrink: 0 }}>
        {t('tickets.options.newTicket')}
      </Button>
      {mayShowAll ? (
        <FormControlLabel
          sx={{ mr: 0, flexShrink: 0 }}
          control={<Switch size="small" checked={showAll} onChange={(event) => onShowAll(event.target.checked)} slotProps={{ input: { 'data-testid': 'show-all' } as object }} />}
          label={t('tickets.options.showAll')}
        />
      ) : null}
      <Box sx={{ flex: 1 }} />
      {tab === 'open' ? <SlaSortToggle active={slaSort} onChange={onSlaSort} /> : null}
      {/* Nothing to filter without queues: tickets without a queue are always listed. */}
      {queues.length > 0 ? (
        <QueueFilter queues={queues} selected={queueIds} onChange={onQueuesChange} />
      ) : null}
    </Box>
  );
});

/**
 * The tickets manager (spec part 1 §2): open (assigned / pending), closed and
 * search tabs over live, paged lists.
 */
export function TicketsManager({ selectedUuid }: { selectedUuid: string | undefined }) {
  const { t } = useTranslation();
  const { user } = useSession();
  // Spec part 1 §9: a narrow screen is under 600 px.
  const narrow = useMediaQuery('(max-width:599.95px)');
  const mayShowAll = user ? can(user, 'tickets-manager:showall') : false;
  const isAdmin = user?.profile === 'admin';

  const [tab, setTab] = useState<ManagerTab>('open');
  const [subTab, setSubTab] = useState<OpenSubTab>('open');
  const [showAll, setShowAll] = useState(false);
  const [slaSort, setSlaSort] = useState(false);
  // Unticked queues are remembered rather than ticked ones, so every queue starts (and arrives) selected.
  const [unticked, setUnticked] = useState<number[]>([]);
  const [searchText, setSearchText] = useState('');
  const [tags, setTags] = useState<PresentedTagSummary[]>([]);
  const [users, setUsers] = useState<PresentedUser[]>([]);
  const [peeking, setPeeking] = useState<PresentedTicket | null>(null);
  const [creating, setCreating] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const navigate = useNavigate();

  // An accepted (or reopened) ticket is followed to the assigned list instead of leaving an emptied Waiting tab.
  const location = useLocation();
  const [followedKey, setFollowedKey] = useState(location.key);
  if (followedKey !== location.key) {
    setFollowedKey(location.key);
    if (followsTicketToOpen(location.state)) {
      setTab('open');
      setSubTab('open');
    }
  }

  const { queues, loading: queuesLoading } = useSelectableQueues();
  const queueIds = useMemo(() => queues.map((q) => q.id).filter((id) => !unticked.includes(id)), [queues, unticked]);
  const searchParam = useDebouncedValue(searchText.trim());
  const onQueuesChange = useCallback((ids: number[]) => setUnticked(queues.map((q) => q.id).filter((id) => !ids.includes(id))), [queues]);
  const onCreate = useCallback(() => setCreating(true), []);

  const base = { showAll: mayShowAll && showAll, queueIds };
  const order = slaSort ? { sortBy: 'sla' as const } : {};
  const openParams: TicketListParams = { ...base, ...order, status: 'open' };
  const pendingParams: TicketListParams = { ...base, ...order, status: 'pending' };
  const closedParams: TicketListParams = { ...base, status: 'closed' };
  const searchParams: TicketListParams = { ...base, searchParam, tags: tags.map((tag) => tag.id), users: users.map((u) => u.id) };

  const ready = !queuesLoading;
  const openList = useTicketList(openParams, ready && tab === 'open');
  const pendingList = useTicketList(pendingParams, ready && tab === 'open');
  const closedList = useTicketList(closedParams, ready && tab === 'closed');
  const searchList = useTicketList(searchParams, ready && tab === 'search');
  const openCount = useTicketCount(openParams, openList, ready && tab === 'open');
  const pendingCount = useTicketCount(pendingParams, pendingList, ready && tab === 'open');

  const list = tab === 'closed' ? closedList : tab === 'search' ? searchList : subTab === 'pending' ? pendingList : openList;
  const listKey = tab === 'open' ? `open-${subTab}` : tab;
  const { tickets, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  // A list's answer re-renders the manager at once (a query store update is synchronous) and its rows
  // in a deferred render that React slices, rather than all of it in one long task.
  const shownList = useDeferredValue(
    useMemo<TicketListView>(
      () => ({ key: listKey, tickets, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage }),
      [listKey, tickets, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage],
    ),
  );
  useTicketShortcuts({ tickets: list.tickets, selectedUuid, onOpen: (ticket) => void navigate(`/tickets/${ticket.uuid}`), onHelp: () => setHelpOpen(true) });
  const emptyText = tab === 'search' ? t('tickets.list.emptySearch') : t('tickets.list.empty');

  const onSearchChange = (value: string) => {
    setSearchText(value);
    // Spec part 1 §2: emptying the search returns to the open tab.
    if (!value.trim()) setTab('open');
  };

  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, overflow: 'hidden' }} data-testid="tickets-manager">
      <ManagerTabs tab={tab} onChange={setTab} />
      <Divider />
      {tab === 'search' ? (
        <Box sx={{ p: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
          <TextField
            size="small"
            fullWidth
            autoFocus
            placeholder={t('tickets.search.placeholder')}
            value={searchText}
            onChange={(event) => onSearchChange(event.target.value)}
            slotProps={{
              htmlInput: { 'data-testid': 'search-input', 'aria-label': t('tickets.search.placeholder'), maxLength: 200 },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Suspense fallback={null}>
            <SearchFilters tags={tags} onTags={setTags} users={users} onUsers={setUsers} withUsers={isAdmin} />
          </Suspense>
        </Box>
      ) : (
        <ListToolbar
          tab={tab}
          mayShowAll={mayShowAll}
          showAll={showAll}
          onShowAll={setShowAll}
          slaSort={slaSort}
          onSlaSort={setSlaSort}
          queues={queues}
          queueIds={queueIds}
          onQueuesChange={onQueuesChange}
          onCreate={onCreate}
        />
      )}
      <Divider />
      {tab === 'open' ? (
        <>
          <OpenSubTabs subTab={subTab} onChange={setSubTab} openCount={openCount} pendingCount={pendingCount} />
          <Divider />
        </>
      ) : null}
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <TicketList
          // A fresh scroll position for each list.
          key={shownList.key}
          list={shownList}
          selectedUuid={selectedUuid}
          narrow={narrow}
          canPeek={isAdmin}
          onPeek={setPeeking}
          emptyText={emptyText}
          emptyHint={tab === 'open' ? t('tickets.list.emptyHint') : undefined}
        />
      </Box>
      <MountWhenOpened open={Boolean(peeking)}>
        <TicketPeekDialog ticket={peeking} onClose={() => setPeeking(null)} />
      </MountWhenOpened>
      <MountWhenOpened open={helpOpen}>
        <TicketShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      </MountWhenOpened>
      <MountWhenOpened open={creating}>
        <NewTicketDialog open={creating} onClose={() => setCreating(false)} />
      </MountWhenOpened>
    </Paper>
  );
}
