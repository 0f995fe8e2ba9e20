import { presentDueDate, type AllTicket, type Language, type PresentedPlan, type PresentedUser, type Profile } from '@atende/shared';

export interface PlanDetail {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  valueCents: number;
  useCampaigns: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
}

export interface UserDetail {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  allTicket: AllTicket;
  language: string | null;
  online: boolean;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  maxOpenTickets: number | null;
  queues: { id: number; name: string; color: string }[];
  createdAt: Date;
  updatedAt: Date;
  company?: {
    id: number;
    name: string;
    dueDate: string | null;
    status: boolean;
    timezone: string;
    settings: { key: string; value: string }[];
    plan: PlanDetail;
  };
}

export function presentPlan(plan: PlanDetail): PresentedPlan {
  const { valueCents, ...rest } = plan;
  // Reais on the wire (the spec's shape), integer cents in the database.
  return { ...rest, value: valueCents / 100 };
}

export function presentUser(user: UserDetail): PresentedUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    super: user.super,
    allTicket: user.allTicket,
    language: (user.language as Language | null) ?? null,
    online: user.online,
    whatsappId: user.whatsappId,
    whatsapp: user.whatsapp,
    maxOpenTickets: user.maxOpenTickets,
    companyId: user.companyId,
    queues: user.queues.map((queue) => ({ ...queue, UserQueue: { userId: user.id, queueId: queue.id } })),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    ...(user.company
      ? {
          company: {
            id: user.company.id,
            name: user.company.name,
            dueDate: presentDueDate(user.company.dueDate),
            status: user.company.status,
            timezone: user.company.timezone,
            settings: user.company.settings,
            plan: presentPlan(user.company.plan),
          },
        }
      : {}),
  };
}
