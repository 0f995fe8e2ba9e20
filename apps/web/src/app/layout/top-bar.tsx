import { hasDueDate } from '@atende/shared';
import AccountCircle from '@mui/icons-material/AccountCircle';
import Campaign from '@mui/icons-material/Campaign';
import ChatIcon from '@mui/icons-material/Chat';
import Notifications from '@mui/icons-material/Notifications';
import Refresh from '@mui/icons-material/Refresh';
import VolumeUp from '@mui/icons-material/VolumeUp';
import { Badge, Box, IconButton } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { lazy, Suspense, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HttpClient } from '../../api/http-client';
import { useSession } from '../../api/session';
import { useUnreadAnnouncements } from '../../features/announcements/use-unread-announcements';
import { useUnreadChats } from '../../features/chats/use-unread-chats';
import { MountWhenOpened } from '../../components/mount-when-opened';
import type { TopBarPopoverProps } from '../../components/top-bar-popover';
import { useNotifications } from '../../features/notifications/use-notifications';
import { formatDate } from '../../i18n';
import { LanguageMenu, TopBarFrame } from './top-bar-frame';

// Loaded on their first open: only the badges' counts are on every page.
const NotificationsPopover = lazy(() => import('../../features/notifications/notifications-popover').then((m) => ({ default: m.NotificationsPopover })));
const VolumePopover = lazy(() => import('./top-bar-menus').then((m) => ({ default: m.VolumePopover })));
const ProfileMenu = lazy(() => import('./top-bar-menus').then((m) => ({ default: m.ProfileMenu })));
const AnnouncementsPopover = lazy(() => import('../../features/announcements/announcements-popover'));
const ChatsPopover = lazy(() => import('../../features/chats/chats-popover'));
// The profile form is opened from the menu now and then: it (and its form fields) load when asked for.
const UserModal = lazy(() => import('../../features/users/user-modal').then((m) => ({ default: m.UserModal })));
// Two-factor sign-in's set-up brings the QR encoder: loaded when opened.
const TwoFactorDialog = lazy(() => import('../../features/two-factor/two-factor-dialog'));
// Push notification settings (issue 35) and this browser's subscription: loaded when opened.
const PushSettingsDialog = lazy(() => import('../../features/push/push-settings-dialog'));

/** Signing out ends this browser's push subscription first (a shared computer tells the next person nothing). */
async function forgetPushSubscription(api: HttpClient): Promise<void> {
  if (!('serviceWorker' in navigator) || !(await navigator.serviceWorker.getRegistration('/'))) return;
  const { unsubscribeThisBrowser } = await import('../../features/push/push-client');
  await unsubscribeThisBrowser(api).catch(() => undefined);
}

const BADGE_MAX = 99;

/**
 * The accessible name of a counter button: the panel's title while nothing is counted, else
 * the badge's visible text first ("3 new announcements", "99+ ..."), so the name a person
 * hears or speaks begins with what they see (WCAG 2.5.3).
 */
function counterLabel(t: TFunction, count: number, titleKey: string, countKey: string): string {
  if (count <= 0) return t(titleKey);
  return t(countKey, { count, shown: count > BADGE_MAX ? `${BADGE_MAX}+` : String(count) });
}

/** A top bar button with its count on a badge (test ids `{name}-button` and `{name}-count`). */
function CounterButton({ name, label, count, icon, onClick }: { name: string; label: string; count: number; icon: ReactNode; onClick(event: MouseEvent<HTMLElement>): void }) {
  return (
    <IconButton color="inherit" onClick={onClick} aria-label={label} data-testid={`${name}-button`}>
      <Badge color="error" badgeContent={count} max={BADGE_MAX} data-testid={`${name}-count`}>
        {icon}
      </Badge>
    </IconButton>
  );
}

/**
 * The counters hold the bar's live data: each reads its own query, so an answer re-renders its
 * button (and the bell its popover), not the whole bar with its menus (on a phone, each whole-bar
 * render on a data answer was a long task of the page's first seconds).
 */
function AnnouncementsCounter({ onOpen }: { onOpen(event: MouseEvent<HTMLElement>): void }) {
  const { t } = useTranslation();
  const unread = useUnreadAnnouncements();
  return <CounterButton name="announcements" label={counterLabel(t, unread, 'announcements.popover.title', 'announcements.popover.badge')} count={unread} icon={<Campaign />} onClick={onOpen} />;
}

function ChatsCounter({ onOpen }: { onOpen(event: MouseEvent<HTMLElement>): void }) {
  const { t } = useTranslation();
  const unread = useUnreadChats();
  return <CounterButton name="chats" label={counterLabel(t, unread, 'chats.popover.title', 'chats.popover.badge')} count={unread} icon={<ChatIcon />} onClick={onOpen} />;
}

/** The bell: its count, its popover, and (in `useNotifications`) the sounds and alerts of new messages. */
function NotificationsBell({ onOpen, ...popover }: TopBarPopoverProps & { onOpen(event: MouseEvent<HTMLElement>): void }) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const count = notifications.data?.count ?? 0;
  return (
    <>
      <CounterButton name="notifications" label={counterLabel(t, count, 'notifications.title', 'notifications.bell')} count={count} icon={<Notifications />} onClick={onOpen} />
      <MountWhenOpened open={popover.open}>
        <NotificationsPopover {...popover} data={notifications.data} loading={notifications.isPending} />
      </MountWhenOpened>
    </>
  );
}

type Panel = 'volume' | 'notifications' | 'announcements' | 'chats' | 'profile' | 'language';

export function TopBar({ onToggleMenu }: { onToggleMenu(): void }) {
  const { t } = useTranslation();
  const { user, signOut, api } = useSession();
  const [panel, setPanel] = useState<{ name: Panel; anchor: HTMLElement } | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  const [pushOpen, setPushOpen] = useState(false);
  if (!user) return null;
  const chatAllowed = Boolean(user.company?.plan?.useInternalChat);

  const open = (name: Panel) => (event: MouseEvent<HTMLElement>) => {
    setPanel({ name, anchor: event.currentTarget });
  };
  const close = () => setPanel(null);
  const dueDate = user.profile === 'admin' && hasDueDate(user.company?.dueDate) ? ` ${t('topBar.dueDate', { date: formatDate(user.company.dueDate) })}` : '';

  return (
    <TopBarFrame user={user} greetingSuffix={dueDate} onToggleMenu={onToggleMenu} languageInMenuOnPhone>
      {/* Volume and refresh give way on a phone; the counters stay: they are how an agent hears of a customer, a colleague or the platform. */}
      <Box sx={{ display: { xs: 'none', sm: 'flex' } }}>
        <Tooltip title={t('topBar.volume')}>
          <IconButton color="inherit" onClick={open('volume')} aria-label={t('topBar.volume')}>
            <VolumeUp />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('topBar.refresh')}>
          <IconButton color="inherit" onClick={() => window.location.reload()} aria-label={t('topBar.refresh')}>
            <Refresh />
          </IconButton>
        </Tooltip>
      </Box>
      <AnnouncementsCounter onOpen={open('announcements')} />
      {chatAllowed ? <ChatsCounter onOpen={open('chats')} /> : null}
      <NotificationsBell onOpen={open('notifications')} anchor={panel?.anchor ?? null} open={panel?.name === 'notifications'} onClose={close} />
      <IconButton color="inherit" onClick={open('profile')} aria-label={t('topBar.profile')} data-testid="profile-button">
        <AccountCircle />
      </IconButton>
      <MountWhenOpened open={panel?.name === 'volume'}>
        <VolumePopover anchor={panel?.anchor ?? null} open={panel?.name === 'volume'} onClose={close} />
      </MountWhenOpened>
      {/* A lazy popover stays mounted after its first open (it keeps its data and live listener). */}
      <MountWhenOpened open={panel?.name === 'announcements'}>
        <AnnouncementsPopover anchor={panel?.anchor ?? null} open={panel?.name === 'announcements'} onClose={close} />
      </MountWhenOpened>
      {chatAllowed ? (
        <MountWhenOpened open={panel?.name === 'chats'}>
          <ChatsPopover anchor={panel?.anchor ?? null} open={panel?.name === 'chats'} onClose={close} />
        </MountWhenOpened>
      ) : null}
      <MountWhenOpened open={panel?.name === 'profile'}>
        <ProfileMenu
          anchor={panel?.anchor ?? null}
          open={panel?.name === 'profile'}
          onClose={close}
          onProfile={() => {
            close();
            setProfileOpen(true);
          }}
          onTwoFactor={() => {
            close();
            setTwoFactorOpen(true);
          }}
          onPush={() => {
            close();
            setPushOpen(true);
          }}
          // Anchored on the profile button: the menu item goes away with its menu.
          onLanguage={() => setPanel((current) => current && { name: 'language', anchor: current.anchor })}
          onLogout={() => {
            close();
            void forgetPushSubscription(api).finally(() => signOut());
          }}
        />
      </MountWhenOpened>
      <MountWhenOpened open={panel?.name === 'language'}>
        <LanguageMenu anchor={panel?.name === 'language' ? panel.anchor : null} onClose={close} />
      </MountWhenOpened>
      {pushOpen ? (
        <Suspense fallback={null}>
          <PushSettingsDialog open onClose={() => setPushOpen(false)} />
        </Suspense>
      ) : null}
      {profileOpen ? (
        <Suspense fallback={null}>
          <UserModal open userId={user.id} onClose={() => setProfileOpen(false)} />
        </Suspense>
      ) : null}
      {twoFactorOpen ? (
        <Suspense fallback={null}>
          <TwoFactorDialog onClose={() => setTwoFactorOpen(false)} />
        </Suspense>
      ) : null}
    </TopBarFrame>
  );
}
