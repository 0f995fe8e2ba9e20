import { Box, Drawer, Toolbar, useMediaQuery, useTheme } from '@mui/material';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { isOverdue } from '../../api/overdue';
import { useSession } from '../../api/session';
import { LiveAnnouncerProvider, VISUALLY_HIDDEN } from '../../components/live-announcer';
import { focusMainContent, MAIN_CONTENT_ID } from '../../components/main-content';
import { PageLoading } from '../../components/page-loading';
import { useServiceWorker } from '../../features/push/use-service-worker';
import { useOwnUserEvents } from '../../features/users/users-queries';
import { PageErrorBoundary } from '../error-boundary';
import { BillingMenu, BillingTopBar, OverdueBanner } from './overdue-parts';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

const DRAWER_WIDTH = 240;
const COLLAPSED_WIDTH = 64;
/** The first stop of the Tab key: hidden until focused, it jumps over the top bar and the menu to the page. */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <Box
      component="a"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        focusMainContent();
      }}
      data-testid="skip-link"
      sx={{
        ...VISUALLY_HIDDEN,
        '&:focus': {
          clip: 'auto',
          width: 'auto',
          height: 'auto',
          m: 0,
          top: 8,
          left: 8,
          zIndex: (theme) => theme.zIndex.tooltip + 1,
          px: 2,
          py: 1,
          bgcolor: 'background.paper',
          color: 'primary.main',
          borderRadius: 1,
          boxShadow: 4,
          fontWeight: 600,
        },
      }}
    >
      {t('app.skipToContent')}
    </Box>
  );
}

export function AppLayout() {
  const { user } = useSession();
  const { t } = useTranslation();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  // The menu's initial state comes from the company setting (spec part 1 §2).
  const [open, setOpen] = useState(() => user?.company?.settings.find((s) => s.key === 'sideMenu')?.value !== 'disabled');
  const [mobileOpen, setMobileOpen] = useState(false);
  useOwnUserEvents();
  useServiceWorker();
  if (!user) return null;

  const width = open ? DRAWER_WIDTH : COLLAPSED_WIDTH;
  const toggleMenu = () => (desktop ? setOpen((v) => !v) : setMobileOpen((v) => !v));
  // Overdue (the server answers 402 outside billing): a bar and a menu that load nothing. The tree keeps
  // its shape, so the page under <main> stays mounted when a payment ends the overdue state.
  const overdue = isOverdue(user);
  const menu = (collapsed: boolean, onNavigate?: () => void) =>
    overdue ? <BillingMenu collapsed={collapsed} onNavigate={onNavigate} /> : <SideMenu user={user} collapsed={collapsed} onNavigate={onNavigate} />;
  return (
    <LiveAnnouncerProvider>
      <SkipLink />
      <Box sx={{ display: 'flex', minHeight: '100vh' }}>
        {overdue ? <BillingTopBar user={user} onToggleMenu={toggleMenu} /> : <TopBar onToggleMenu={toggleMenu} />}
        {desktop ? (
          <Drawer variant="permanent" sx={{ width, flexShrink: 0, '& .MuiDrawer-paper': { width, boxSizing: 'border-box', overflowX: 'hidden' } }}>
            <Toolbar variant="dense" />
            {menu(!open)}
          </Drawer>
        ) : (
          <Drawer
            variant="temporary"
            open={mobileOpen}
            onClose={() => setMobileOpen(false)}
            // The open drawer is a dialog: it is named after the menu it holds.
            slotProps={{ paper: { 'aria-label': t('app.navigation') } }}
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
          >
            <Toolbar variant="dense" />
            {menu(false, () => setMobileOpen(false))}
          </Drawer>
        )}
        <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} sx={{ flexGrow: 1, minWidth: 0, p: { xs: 1, sm: 2 }, '&:focus': { outline: 'none' } }}>
          <Toolbar variant="dense" />
          {overdue ? <OverdueBanner user={user} /> : null}
          <PageErrorBoundary>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </PageErrorBoundary>
        </Box>
      </Box>
    </LiveAnnouncerProvider>
  );
}
