import { firstScreenParts, pageParts, type FirstScreenPart, type PresentedUser } from '@atende/shared';
import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { BILLING_PATHS, isOverdue, overdueFrom } from '../api/overdue';
import { useSession } from '../api/session';
import { PageLoading } from '../components/page-loading';
import { loadConversation } from '../features/conversation/load-conversation';
import { PlaceholderPage } from '../features/placeholder/placeholder-page';
import { TwoFactorGate } from '../features/two-factor/two-factor-gate';
import { preloadable } from './preloadable';

// The signed-in frame (top bar, menu) is a chunk of its own: the login page's first load does not carry it.
const AppLayout = preloadable(() => import('./layout/app-layout').then((m) => ({ default: m.AppLayout })));
const LoginPage = preloadable(() => import('../features/login/login-page'));
const TodoListPage = lazy(() => import('../features/todolist/todo-list-page'));
const TicketsPage = preloadable(() => import('../features/tickets/tickets-page'));
const ContactsPage = lazy(() => import('../features/contacts/contacts-page'));
const QuickMessagesPage = lazy(() => import('../features/quick-messages/quick-messages-page'));
const ConnectionsPage = lazy(() => import('../features/connections/connections-page'));
const QueuesPage = lazy(() => import('../features/queues/queues-page'));
const PromptsPage = lazy(() => import('../features/prompts/prompts-page'));
const IntegrationsPage = lazy(() => import('../features/integrations/integrations-page'));
const SettingsPage = lazy(() => import('../features/settings/settings-page'));
const MessagesApiPage = lazy(() => import('../features/messages-api/messages-api-page'));
const SandboxPhonePage = lazy(() => import('../features/sandbox/sandbox-phone-page'));
const UsersPage = lazy(() => import('../features/users/users-page'));
const TagsPage = lazy(() => import('../features/tags/tags-page'));
const KanbanPage = lazy(() => import('../features/kanban/kanban-page'));
const HelpsPage = lazy(() => import('../features/helps/helps-page'));
const SchedulesPage = lazy(() => import('../features/schedules/schedules-page'));
const CampaignsConfigPage = lazy(() => import('../features/campaign-settings/campaigns-config-page'));
const ContactListsPage = lazy(() => import('../features/contact-lists/contact-lists-page'));
const ContactListItemsPage = lazy(() => import('../features/contact-lists/contact-list-items-page'));
const CampaignsPage = lazy(() => import('../features/campaigns/campaigns-page'));
const CampaignReportPage = lazy(() => import('../features/campaigns/campaign-report-page'));
const FileListsPage = lazy(() => import('../features/file-lists/file-lists-page'));
const DashboardPage = preloadable(() => import('../features/dashboard/dashboard-page'));
const AnnouncementsPage = lazy(() => import('../features/announcements/announcements-page'));
const ChatsPage = lazy(() => import('../features/chats/chats-page'));
const SignupPage = preloadable(() => import('../features/signup/signup-page'));
const PasswordResetPage = preloadable(() => import('../features/password-reset/password-reset-page'));
const InvoicesPage = lazy(() => import('../features/invoices/invoices-page'));
const SubscriptionPage = lazy(() => import('../features/subscription/subscription-page'));
const AuditLogsPage = lazy(() => import('../features/audit-logs/audit-logs-page'));

const FIRST_SCREEN_LOADERS: Record<FirstScreenPart, () => Promise<unknown>> = {
  login: LoginPage.load,
  signup: SignupPage.load,
  passwordReset: PasswordResetPage.load,
  appLayout: AppLayout.load,
  dashboard: DashboardPage.load,
  tickets: TicketsPage.load,
  conversation: loadConversation,
};

/**
 * Starts loading the chunks the first frame of `pathname` needs, before the texts and the
 * session are there (main.tsx): they would otherwise be asked for one after the other, each
 * once the step before it has rendered. Settles when they are in (failed or not): main.tsx
 * renders then, and the preloadable components find them loaded. (The page the server sends
 * names the same files, when the build's first-screen.json lists them.)
 */
export function preloadRoute(pathname: string, signedIn: boolean): Promise<unknown> {
  return loadParts(firstScreenParts(pathname, signedIn));
}

/** Whether the signed-in frame has painted once: pages after the first render at once. */
let framePainted = false;

/**
 * The first signed-in page renders once the frame around it (top bar, menu) has painted, its
 * chunks (`pageParts`) downloaded meanwhile: a slow phone shows the frame and its greeting
 * first, and the page then comes whole (no fallback that React would hold for 300 ms).
 */
function AfterFrame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const [ready, setReady] = useState(framePainted);
  useEffect(() => {
    if (ready) return;
    let mounted = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // An effect may run before the browser paints what was committed; a task queued from the
    // next animation frame runs after that paint.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        void loadParts(pageParts(pathname)).then(() => {
          framePainted = true;
          // A transition: the page renders in slices, the frame stays responsive meanwhile.
          if (mounted) startTransition(() => setReady(true));
        });
      });
    });
    return () => {
      mounted = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, pathname]);
  return ready ? children : <PageLoading />;
}

/**
 * Starts loading these parts; settles when all are in. A failed early load is not an error:
 * the lazy component asks again and shows what went wrong.
 */
function loadParts(parts: FirstScreenPart[]): Promise<unknown> {
  return Promise.all(parts.map((part) => FIRST_SCREEN_LOADERS[part]().catch(() => undefined)));
}

/** Areas already built; the rest of PRIVATE shows its title. */
const BUILT: Record<string, ReactNode> = {
  '/': <DashboardPage />,
  '/tickets/:ticketId?': <TicketsPage />,
  '/contacts': <ContactsPage />,
  '/quick-messages': <QuickMessagesPage />,
  '/connections': <ConnectionsPage />,
  '/queues': <QueuesPage />,
  '/prompts': <PromptsPage />,
  '/queue-integration': <IntegrationsPage />,
  '/settings': <SettingsPage />,
  '/messages-api': <MessagesApiPage />,
  '/users': <UsersPage />,
  '/tags': <TagsPage />,
  '/kanban': <KanbanPage />,
  '/helps': <HelpsPage />,
  '/schedules': <SchedulesPage />,
  '/campaigns-config': <CampaignsConfigPage />,
  '/contact-lists': <ContactListsPage />,
  '/contact-lists/:contactListId/contacts': <ContactListItemsPage />,
  '/campaigns': <CampaignsPage />,
  '/campaign/:campaignId/report': <CampaignReportPage />,
  '/files': <FileListsPage />,
  '/announcements': <AnnouncementsPage />,
  '/chats/:id?': <ChatsPage />,
  '/financeiro': <InvoicesPage />,
  '/subscription': <SubscriptionPage />,
  '/audit-logs': <AuditLogsPage />,
};

/** Private routes of spec part 2 §2.1; areas not built yet show their title. */
const PRIVATE: [path: string, titleKey: string][] = [
  ['/', 'pages.dashboard'],
  ['/tickets/:ticketId?', 'pages.tickets'],
  ['/connections', 'pages.connections'],
  ['/quick-messages', 'pages.quickMessages'],
  ['/schedules', 'pages.schedules'],
  ['/tags', 'pages.tags'],
  ['/contacts', 'pages.contacts'],
  ['/helps', 'pages.helps'],
  ['/users', 'pages.users'],
  ['/files', 'pages.files'],
  ['/prompts', 'pages.prompts'],
  ['/queue-integration', 'pages.queueIntegration'],
  ['/messages-api', 'pages.messagesApi'],
  ['/settings', 'pages.settings'],
  ['/kanban', 'pages.kanban'],
  ['/financeiro', 'pages.financeiro'],
  ['/queues', 'pages.queues'],
  ['/announcements', 'pages.announcements'],
  ['/subscription', 'pages.subscription'],
  ['/audit-logs', 'pages.auditLogs'],
  ['/chats/:id?', 'pages.chats'],
];

/** Exist only when the company's plan has campaigns (arch "Campaign area"), as their menu entries. */
const CAMPAIGNS: [path: string, titleKey: string][] = [
  ['/contact-lists', 'pages.contactLists'],
  ['/contact-lists/:contactListId/contacts', 'pages.contactListItems'],
  ['/campaign/:campaignId/report', 'pages.campaignReport'],
  ['/campaigns', 'pages.campaigns'],
  ['/campaigns-config', 'pages.campaignsConfig'],
];

function RequireSession({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const location = useLocation();
  if (loading) return <PageLoading />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <TwoFactorGate>{children}</TwoFactorGate>;
}

function PublicOnly({ children }: { children: ReactNode }) {
  const { user, loading, landing } = useSession();
  if (loading) return <PageLoading />;
  if (user) return <Navigate to={landing} replace />;
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

/** The longest wait a timer can take (about 24.8 days); a later due date is checked again at the next render. */
const MAX_TIMER_MS = 2_147_483_647;

/** Whether the session's company is overdue, turning true by itself when its due date passes while the app is open. */
function useOverdue(user: PresentedUser | null): boolean {
  const [, setTick] = useState(0);
  const overdue = isOverdue(user);
  const endsAt = overdueFrom(user)?.getTime();
  useEffect(() => {
    if (overdue || endsAt === undefined) return;
    const wait = endsAt - Date.now();
    if (!(wait > 0 && wait < MAX_TIMER_MS)) return;
    const timer = setTimeout(() => setTick((n) => n + 1), wait + 1000);
    return () => clearTimeout(timer);
  }, [overdue, endsAt]);
  return overdue;
}

export function AppRoutes() {
  const { user } = useSession();
  const overdue = useOverdue(user);
  const campaigns = user?.company?.plan?.useCampaigns ? CAMPAIGNS : [];
  // An overdue company reaches billing only (the server answers 402 elsewhere): every other page goes to
  // /financeiro without being loaded. The routes keep their places, so the invoices page stays mounted
  // when a payment ends the overdue state.
  const page = (path: string, element: ReactNode) =>
    overdue && !(BILLING_PATHS as readonly string[]).includes(path) ? <Navigate to="/financeiro" replace /> : <AfterFrame>{element}</AfterFrame>;
  return (
    <Routes>
      <Route path="/login" element={<PublicOnly><LoginPage /></PublicOnly>} />
      <Route path="/signup" element={<PublicOnly><SignupPage /></PublicOnly>} />
      <Route path="/forgetpsw" element={<PublicOnly><PasswordResetPage /></PublicOnly>} />
      <Route element={<RequireSession><Suspense fallback={<PageLoading />}><AppLayout /></Suspense></RequireSession>}>
        {[...PRIVATE, ...campaigns].map(([path, titleKey]) => (
          <Route key={path} path={path} element={page(path, BUILT[path] ?? <PlaceholderPage titleKey={titleKey} />)} />
        ))}
        <Route path="/todolist" element={page('/todolist', <TodoListPage />)} />
        {/* The simulated customer's phone of a sandbox connection (not in the spec's menu: opened from connections and tickets). */}
        <Route path="/phone/:whatsappId?" element={page('/phone', <SandboxPhonePage />)} />
        <Route path="*" element={page('*', <PlaceholderPage titleKey="pages.notFound" />)} />
      </Route>
    </Routes>
  );
}
