import ChatOutlinedIcon from '@mui/icons-material/ChatOutlined';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import { Box, Paper, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { VISUALLY_HIDDEN } from '../../components/live-announcer';
import { PageLoading } from '../../components/page-loading';
import { TabStrip } from '../../components/tab-strip';
import { loadConversation } from '../conversation/load-conversation';
import { TicketsManager } from './tickets-manager';
import { useTicketsRealtime } from './use-tickets-realtime';

// The conversation (composer, bubbles, media, its dialogs) loads when a ticket is opened.
const Conversation = lazy(() => loadConversation().then((m) => ({ default: m.Conversation })));

type MobileView = 'chat' | 'list';

// The app bar (dense toolbar, 48 px) and the page padding of the layout's <main>.
const PAGE_HEIGHT = { xs: 'calc(100dvh - 48px - 16px)', sm: 'calc(100dvh - 48px - 32px)' };

function Welcome() {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', justifyContent: 'center', height: '100%', p: 3, textAlign: 'center' }} data-testid="tickets-welcome">
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 96, height: 96, opacity: 0.9 }} />
      <Typography variant="h6" component="p">
        {t('app.welcome')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('tickets.welcomeHint')}
      </Typography>
    </Stack>
  );
}

function ChatPane({ ticketUuid }: { ticketUuid: string | undefined }) {
  return (
    <Paper variant="outlined" sx={{ height: '100%', minHeight: 0, overflow: 'hidden', display: 'flex', flexDirection: 'column' }}>
      {ticketUuid ? (
        <Suspense fallback={<PageLoading />}>
          <Conversation ticketUuid={ticketUuid} />
        </Suspense>
      ) : (
        <Welcome />
      )}
    </Paper>
  );
}

/**
 * /tickets/:ticketId? (spec part 1 §2): the list on the left third and the
 * conversation on the right; below the md breakpoint two tabs switch between them.
 */
export default function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  const [view, setView] = useState<MobileView>(ticketId ? 'chat' : 'list');
  // Opening a ticket shows the chat; leaving it (close, transfer, delete) shows the list again.
  const [shownTicketId, setShownTicketId] = useState(ticketId);
  if (shownTicketId !== ticketId) {
    setShownTicketId(ticketId);
    setView(ticketId ? 'chat' : 'list');
  }
  useTicketsRealtime();
  // The screen's heading, for screen readers' heading navigation: the list and the conversation show what it says.
  const heading = (
    <Typography component="h1" sx={VISUALLY_HIDDEN}>
      {t('pages.tickets')}
    </Typography>
  );

  if (desktop) {
    return (
      <Box sx={{ display: 'flex', gap: 2, height: PAGE_HEIGHT, minHeight: 420 }} data-testid="tickets-page">
        {heading}
        <Box sx={{ width: '33.333%', minWidth: 340, flexShrink: 0, minHeight: 0 }}>
          <TicketsManager selectedUuid={ticketId} />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          <ChatPane ticketUuid={ticketId} />
        </Box>
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: PAGE_HEIGHT, minHeight: 360 }} data-testid="tickets-page">
      {heading}
      <Box sx={{ mb: 1 }}>
        <TabStrip<MobileView>
          value={view}
          onChange={setView}
          height={44}
          iconPosition="start"
          items={[
            { value: 'chat', icon: <ChatOutlinedIcon fontSize="small" />, label: t('tickets.views.chat'), testId: 'view-chat' },
            { value: 'list', icon: <FormatListBulletedIcon fontSize="small" />, label: t('tickets.views.list'), testId: 'view-list' },
          ]}
        />
      </Box>
      {/* The list stays mounted behind the chat so its tab, filters and scroll survive the switch. */}
      <Box sx={{ flex: 1, minHeight: 0, display: view === 'list' ? 'block' : 'none' }}>
        <TicketsManager selectedUuid={ticketId} />
      </Box>
      {view === 'chat' ? (
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <ChatPane ticketUuid={ticketId} />
        </Box>
      ) : null}
    </Box>
  );
}
