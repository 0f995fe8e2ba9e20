import type { Profile } from './constants.js';
import type { PlanFeature, PlanFlags } from './plans.js';

/**
 * Named permission rules (spec part 1 §6). Profile `user` has no static rule;
 * profile `admin` has all of them. The server checks these; the web uses the same
 * table to hide what the server would refuse.
 */
export const PERMISSION_RULES = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:actionButtons',
  'connections-page:addConnection',
  'connections-page:editOrDeleteConnection',
] as const;
export type PermissionRule = (typeof PERMISSION_RULES)[number];

const STATIC_RULES: Record<Profile, readonly PermissionRule[]> = {
  user: [],
  admin: PERMISSION_RULES,
};

export interface PermissionSubject {
  profile: Profile;
  super: boolean;
}

export function can(subject: PermissionSubject, rule: PermissionRule): boolean {
  return STATIC_RULES[subject.profile].includes(rule);
}

export type MenuGroup = 'main' | 'campaigns' | 'admin';

export interface MenuItem {
  key: string;
  route: string;
  group: MenuGroup;
  /** Permission rule needed, if any. */
  rule?: PermissionRule;
  /** Plan feature needed, if any. */
  feature?: PlanFeature;
  superOnly?: boolean;
}

/** The side menu, in display order (spec part 1 §2 "Side menu"). */
export const MENU_ITEMS: readonly MenuItem[] = [
  { key: 'dashboard', route: '/', group: 'main', rule: 'dashboard:view' },
  { key: 'tickets', route: '/tickets', group: 'main' },
  { key: 'kanban', route: '/kanban', group: 'main', feature: 'useKanban' },
  { key: 'quickMessages', route: '/quick-messages', group: 'main' },
  { key: 'todolist', route: '/todolist', group: 'main' },
  { key: 'contacts', route: '/contacts', group: 'main' },
  { key: 'schedules', route: '/schedules', group: 'main', feature: 'useSchedules' },
  { key: 'tags', route: '/tags', group: 'main' },
  { key: 'chats', route: '/chats', group: 'main', feature: 'useInternalChat' },
  { key: 'helps', route: '/helps', group: 'main' },
  { key: 'campaigns', route: '/campaigns', group: 'campaigns', rule: 'drawer-admin-items:view' },
  { key: 'contactLists', route: '/contact-lists', group: 'campaigns', rule: 'drawer-admin-items:view' },
  { key: 'campaignsConfig', route: '/campaigns-config', group: 'campaigns', rule: 'drawer-admin-items:view' },
  { key: 'announcements', route: '/announcements', group: 'admin', superOnly: true },
  { key: 'prompts', route: '/prompts', group: 'admin', rule: 'drawer-admin-items:view', feature: 'useOpenAi' },
  {
    key: 'queueIntegration',
    route: '/queue-integration',
    group: 'admin',
    rule: 'drawer-admin-items:view',
    feature: 'useIntegrations',
  },
  { key: 'connections', route: '/connections', group: 'admin', rule: 'drawer-admin-items:view' },
  { key: 'files', route: '/files', group: 'admin', rule: 'drawer-admin-items:view' },
  { key: 'queues', route: '/queues', group: 'admin', rule: 'drawer-admin-items:view' },
  { key: 'users', route: '/users', group: 'admin', rule: 'drawer-admin-items:view' },
  {
    key: 'messagesApi',
    route: '/messages-api',
    group: 'admin',
    rule: 'drawer-admin-items:view',
    feature: 'useExternalApi',
  },
  { key: 'financeiro', route: '/financeiro', group: 'admin', rule: 'drawer-admin-items:view' },
  // Not in the spec's menu (part 2 §2.1 lists the route): admins find the trial and plan next to the invoices.
  { key: 'subscription', route: '/subscription', group: 'admin', rule: 'drawer-admin-items:view' },
  { key: 'settings', route: '/settings', group: 'admin', rule: 'drawer-admin-items:view' },
  // Issue 35: who changed what, admins only (the server's GET /audit-logs refuses others).
  { key: 'auditLogs', route: '/audit-logs', group: 'admin', rule: 'drawer-admin-items:view' },
];

export interface MenuContext extends PermissionSubject {
  plan: PlanFlags;
}

export function isMenuItemVisible(item: MenuItem, ctx: MenuContext): boolean {
  if (item.superOnly && !ctx.super) return false;
  if (item.rule && !can(ctx, item.rule)) return false;
  // The plan decides the campaign area, as the server does (arch "Campaign area"): the spec's "or the
  // local cshow flag" would open it to every company, since sign-up sets campaignsEnabled 'true'.
  if (item.group === 'campaigns' && !ctx.plan.useCampaigns) return false;
  if (item.feature && !ctx.plan[item.feature]) return false;
  return true;
}

export function visibleMenuItems(ctx: MenuContext): MenuItem[] {
  return MENU_ITEMS.filter((item) => isMenuItemVisible(item, ctx));
}
