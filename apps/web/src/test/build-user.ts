import { NO_EXPIRY_DUE_DATE, PLAN_FEATURES, type PlanFlags, type PresentedQueueSummary, type PresentedUser, type PresentedUserCompany } from '@atende/shared';

/**
 * A user as the API presents it, for web tests: "Usuário {id}" of company 3, profile
 * user, in no queue, without `company` (what `GET /users` answers; the session's
 * answers add it: `buildUserCompany`). Overrides replace whole fields; `queues` get
 * their `UserQueue` link as the API adds it.
 */
export type UserOverrides = Omit<Partial<PresentedUser>, 'queues'> & { queues?: PresentedQueueSummary[] };

export function buildUser(id: number, { queues = [], ...overrides }: UserOverrides = {}): PresentedUser {
  return {
    id,
    name: `Usuário ${id}`,
    email: `user${id}@example.com`,
    profile: 'user',
    super: false,
    allTicket: 'desabled',
    language: null,
    online: false,
    whatsappId: null,
    whatsapp: null,
    maxOpenTickets: null,
    companyId: 3,
    queues: queues.map((queue) => ({ ...queue, UserQueue: { userId: id, queueId: queue.id } })),
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * The signed-in user's company: company 3, active, no expiry, in the test's own time
 * zone, no settings, and a plan with the features named in `features` on (the others
 * off). Overrides replace whole fields.
 */
export function buildUserCompany(overrides: Partial<PresentedUserCompany> = {}, features: Partial<PlanFlags> = {}): PresentedUserCompany {
  const flags = Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, features[feature] ?? false])) as PlanFlags;
  return {
    id: 3,
    name: 'Empresa 3',
    dueDate: NO_EXPIRY_DUE_DATE,
    status: true,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    settings: [],
    plan: { ...flags, id: 1, name: 'Plano 1', users: 10, connections: 10, queues: 10, value: 0 },
    ...overrides,
  };
}
