import type { PresentedContact } from '@atende/shared';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { alpha, useTheme } from '@mui/material/styles';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import { useMemo, useState } from 'react';
import { Calendar, dateFnsLocalizer, Views, type EventProps, type View } from 'react-big-calendar';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCompanyTimeZone, useSession } from '../../api/session';
import { AddButton, ListPageHeader, SearchField } from '../../components/list-page-parts';
import { PageLoading } from '../../components/page-loading';
import { toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { formatTime, fromWallClock, zonedWallClock } from '../../i18n/dates';
import { ScheduleDialog, type ScheduleContact } from './schedule-dialog';
import { cacheRemovedSchedule, useScheduleEvents, useSchedulePages, type Schedule } from './schedules-queries';

const localizer = dateFnsLocalizer({ format, parse, startOfWeek, getDay, locales: { pt: ptBR, en: enUS, es } });

interface CalendarEvent {
  schedule: Schedule;
  title: string;
  start: Date;
  end: Date;
}

type DialogState = { record: Schedule | null; contact?: ScheduleContact | null; sendAt?: string } | null;

function statusColor(status: Schedule['status']): 'success' | 'error' | 'info' | 'warning' {
  if (status === 'ENVIADA') return 'success';
  if (status === 'ERRO') return 'error';
  if (status === 'AGENDADA') return 'info';
  return 'warning';
}

/** One schedule on the calendar: contact and status; an ERRO shows 'Erro de Envio' and its reason on hover. */
function ScheduleEvent({ event }: EventProps<CalendarEvent>) {
  const { t } = useTranslation();
  const { schedule } = event;
  const reason = schedule.reason ? t(`errors.${schedule.reason}`, { defaultValue: schedule.reason }) : '';
  const tip = schedule.status === 'ERRO' ? `${t('schedules.status.ERRO')}: ${reason}` : `${t(`schedules.status.${schedule.status}`)} · ${schedule.body}`;
  return (
    <Tooltip title={tip}>
      <Box component="span" sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="schedule-event" data-schedule-id={schedule.id} data-status={schedule.status}>
        {event.title}
      </Box>
    </Tooltip>
  );
}

/**
 * Schedules calendar (spec part 2 §2.6): month, week and day views of the
 * loaded schedules in the company's time zone, the title with their count; a
 * click opens a schedule, a picked day adds one then; `?contactId=` opens the
 * add dialog for that contact. Lazy-loaded (the calendar is heavy).
 */
export default function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const timeZone = useCompanyTimeZone();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useSchedulePages(searchParam);
  const [view, setView] = useState<View>(Views.MONTH);
  const [date, setDate] = useState(() => zonedWallClock(new Date(), timeZone));
  const [dialog, setDialog] = useState<DialogState>(null);
  useScheduleEvents();

  // `?contactId=` (the ticket menu, a contact's page): the add dialog opens for that contact.
  const contactId = Number(params.get('contactId'));
  const linkedContact = useQuery({
    queryKey: ['contacts', 'one', contactId],
    queryFn: () => api.get<PresentedContact>(`/contacts/${contactId}`),
    enabled: Number.isInteger(contactId) && contactId > 0,
  });
  const fromLink: DialogState = linkedContact.data && !dialog ? { record: null, contact: { id: linkedContact.data.id, name: linkedContact.data.name, number: linkedContact.data.number } } : null;
  const openDialog = dialog ?? fromLink;
  const closeDialog = () => {
    setDialog(null);
    if (params.has('contactId')) {
      params.delete('contactId');
      setParams(params, { replace: true });
    }
  };

  const deletion = useDeleteConfirmation<Schedule>({
    path: (record) => `/schedules/${record.id}`,
    onDeleted: (record) => {
      cacheRemovedSchedule(queryClient, record.id);
      toastSuccess(t('schedules.deleted'));
    },
    title: () => t('schedules.deleteTitle'),
    message: t('schedules.deleteMessage'),
  });

  const schedules = useMemo(() => pages.data?.pages.flatMap((page) => page.schedules) ?? [], [pages.data]);
  const events = useMemo<CalendarEvent[]>(
    () =>
      schedules.map((schedule) => {
        const start = zonedWallClock(new Date(schedule.sendAt), timeZone);
        const title = `${formatTime(schedule.sendAt, timeZone)} ${schedule.contact.name} · ${t(`schedules.status.${schedule.status}`)}`;
        return { schedule, title, start, end: new Date(start.getTime() + 30 * 60_000) };
      }),
    [schedules, timeZone, t],
  );
  const language = i18n.language.startsWith('en') ? 'en' : i18n.language.startsWith('es') ? 'es' : 'pt';
  const messages = {
    month: t('schedules.calendar.month'),
    week: t('schedules.calendar.week'),
    day: t('schedules.calendar.day'),
    today: t('schedules.calendar.today'),
    previous: t('schedules.calendar.previous'),
    next: t('schedules.calendar.next'),
    agenda: t('schedules.calendar.agenda'),
    date: t('schedules.calendar.date'),
    time: t('schedules.calendar.time'),
    event: t('schedules.calendar.event'),
    noEventsInRange: t('schedules.calendar.noEvents'),
    showMore: (count: number) => t('schedules.calendar.more', { count }),
  };

  return (
    <Stack sx={{ p: { xs: 1, sm: 2 }, gap: 2, height: '100%', minHeight: 0 }}>
      <ListPageHeader title={t('schedules.title', { count: schedules.length })} titleTestId="schedules-title">
        <SearchField value={search} onChange={setSearch} placeholder={t('schedules.search')} testId="schedule-search" />
        <AddButton label={t('schedules.add')} onClick={() => setDialog({ record: null })} testId="schedule-add" />
      </ListPageHeader>
      {pages.isError ? <Alert severity="error">{t('schedules.loadError')}</Alert> : null}
      {pages.isPending ? (
        <PageLoading />
      ) : (
        <Box
          data-testid="schedules-calendar"
          sx={{
            flex: 1,
            minHeight: 520,
            '& .rbc-calendar': { color: 'text.primary' },
            '& .rbc-month-view, & .rbc-time-view, & .rbc-header, & .rbc-day-bg + .rbc-day-bg, & .rbc-month-row + .rbc-month-row, & .rbc-time-content, & .rbc-timeslot-group, & .rbc-day-slot .rbc-time-slot, & .rbc-time-header-content, & .rbc-agenda-view table.rbc-agenda-table':
              { borderColor: 'divider' },
            '& .rbc-off-range-bg': { bgcolor: 'action.hover' },
            // The library's grey (#999) days of the next and previous months read at 2.6:1; the theme's secondary text keeps 4.5:1.
            '& .rbc-off-range, & .rbc-off-range .rbc-button-link': { color: 'text.secondary' },
            '& .rbc-today': { bgcolor: alpha(theme.palette.primary.main, 0.12) },
            '& .rbc-toolbar': { flexWrap: 'wrap', gap: 1 },
            '& .rbc-toolbar button': { color: 'text.primary', borderColor: 'divider' },
            '& .rbc-toolbar button.rbc-active, & .rbc-toolbar button:hover': { bgcolor: 'action.selected', color: 'text.primary' },
            '& .rbc-show-more': { bgcolor: 'transparent', color: 'primary.main' },
          }}
        >
          <Calendar<CalendarEvent>
            localizer={localizer}
            culture={language}
            events={events}
            view={view}
            onView={setView}
            views={[Views.MONTH, Views.WEEK, Views.DAY]}
            date={date}
            getNow={() => zonedWallClock(new Date(), timeZone)}
            onNavigate={setDate}
            selectable
            popup
            messages={messages}
            components={{ event: ScheduleEvent }}
            eventPropGetter={(event) => {
              const color = theme.palette[statusColor(event.schedule.status)];
              return { style: { backgroundColor: color.main, color: color.contrastText, border: 'none' } };
            }}
            onSelectEvent={(event) => setDialog({ record: event.schedule })}
            onSelectSlot={(slot) => {
              // A day of the month view keeps the default hour; a week/day slot takes its time.
              // The calendar's dates carry the company's wall clock in browser-local fields.
              const picked = new Date(slot.start);
              if (view === Views.MONTH) {
                const base = zonedWallClock(new Date(Date.now() + 3_600_000), timeZone);
                picked.setHours(base.getHours(), base.getMinutes());
              }
              setDialog({ record: null, sendAt: fromWallClock(picked) });
            }}
            style={{ height: '100%' }}
          />
        </Box>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'center' }}>
        {pages.hasNextPage ? (
          <Button onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage} data-testid="schedules-load-more">
            {t('schedules.loadMore')}
          </Button>
        ) : null}
        {!pages.isPending && schedules.length === 0 ? (
          <Typography variant="body2" color="text.secondary" data-testid="schedules-empty">
            {t('schedules.empty')}
          </Typography>
        ) : null}
      </Stack>
      {openDialog ? (
        <ScheduleDialog
          key={openDialog.record?.id ?? `new-${openDialog.contact?.id ?? ''}-${openDialog.sendAt ?? ''}`}
          record={openDialog.record}
          contact={openDialog.contact ?? null}
          {...(openDialog.sendAt ? { initialSendAt: openDialog.sendAt } : {})}
          onClose={closeDialog}
          {...(openDialog.record ? { onDelete: (record: Schedule) => deletion.ask(record) } : {})}
        />
      ) : null}
      {deletion.dialog}
    </Stack>
  );
}
