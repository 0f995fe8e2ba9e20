import type { AllTicket, Profile } from '@atende/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import type { RequestContext } from '../../platform/http/context.js';

interface SessionRow extends Record<string, unknown> {
  id: number;
  company_id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  all_ticket: AllTicket;
  token_version: number;
  queue_ids: number[] | null;
  company_name: string;
  due_date: string | null;
  company_status: boolean;
  timezone: string;
  plan_id: number;
  plan_users: number;
  plan_connections: number;
  plan_queues: number;
  use_campaigns: boolean;
  use_kanban: boolean;
  use_open_ai: boolean;
  use_integrations: boolean;
  use_schedules: boolean;
  use_internal_chat: boolean;
  use_external_api: boolean;
  two_factor_setup_required: boolean;
}

/**
 * Loads everything a request needs to know about its user in one statement
 * (user, company, plan and queue ids), since it runs on every request. A company the
 * whaticket importer has not finished has no sessions.
 */
export async function loadSession(db: DbOrTx, userId: number): Promise<RequestContext | null> {
  // Both drivers (PGlite and node-postgres) answer raw SQL with `{ rows }`.
  const result = (await db.execute(sql`
    select u.id, u.company_id, u.name, u.email, u.profile, u.super, u.all_ticket, u.token_version,
      (select coalesce(array_agg(uq.queue_id order by uq.queue_id), '{}') from user_queues uq where uq.user_id = u.id) as queue_ids,
      c.name as company_name, c.due_date::text as due_date, c.status as company_status, c.timezone,
      p.id as plan_id, p.users as plan_users, p.connections as plan_connections, p.queues as plan_queues,
      p.use_campaigns, p.use_kanban, p.use_open_ai, p.use_integrations, p.use_schedules,
      p.use_internal_chat, p.use_external_api,
      (exists (select 1 from settings s where s.company_id = u.company_id and s.key = 'requireTwoFactor' and s.value = 'enabled')
        and not exists (select 1 from user_two_factor f where f.user_id = u.id and f.enabled_at is not null)) as two_factor_setup_required
    from users u
    join companies c on c.id = u.company_id
    join plans p on p.id = c.plan_id
    where u.id = ${userId} and not c.importing`)) as unknown as { rows: SessionRow[] };
  const row = result.rows[0];
  if (!row) return null;
  return {
    companyId: row.company_id,
    user: {
      id: row.id,
      companyId: row.company_id,
      name: row.name,
      email: row.email,
      profile: row.profile,
      super: row.super,
      allTicket: row.all_ticket,
      tokenVersion: row.token_version,
      queueIds: (row.queue_ids ?? []).map(Number),
      twoFactorSetupRequired: row.two_factor_setup_required,
    },
    company: {
      id: row.company_id,
      name: row.company_name,
      dueDate: row.due_date,
      status: row.company_status,
      timezone: row.timezone,
      plan: {
        id: row.plan_id,
        users: row.plan_users,
        connections: row.plan_connections,
        queues: row.plan_queues,
        useCampaigns: row.use_campaigns,
        useKanban: row.use_kanban,
        useOpenAi: row.use_open_ai,
        useIntegrations: row.use_integrations,
        useSchedules: row.use_schedules,
        useInternalChat: row.use_internal_chat,
        useExternalApi: row.use_external_api,
      },
    },
  };
}
