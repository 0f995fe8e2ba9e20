import { SETTING_DEFINITIONS, type SettingKey } from '@atende/shared';
import { asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import {
  companies,
  contacts,
  plans,
  queueOptions,
  queues,
  settings,
  tickets,
  whatsappQueues,
  whatsapps,
  type QueueOptionRow,
  type QueueRow,
  type ScheduleRow,
  type TicketRow,
  type WhatsappRow,
} from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { sortOptions } from '../modules/queue-options/queue-options.repo.js';
import { inTenant } from '../platform/db/tenant.js';

type CompanySettings = Record<SettingKey, string>;

/** A ticket with everything the automation decides on: contact, connection, company clock and plan, settings. */
export interface AutomationTicket {
  ticket: TicketRow;
  /** `disableBot`: no chatbot, integration or prompt answers this contact. */
  contact: { name: string; number: string; email: string; isGroup: boolean; disableBot: boolean };
  connection: WhatsappRow | null;
  company: { timezone: string; schedules: ScheduleRow[]; useOpenAi: boolean; useIntegrations: boolean };
  settings: CompanySettings;
  /** How many queues the connection's bot offers (0: no menu, nothing more to read). */
  connectionQueueCount: number;
}

/** The company's settings, every key present: what is not stored has its default. */
function withDefaults(stored: Record<string, string>): CompanySettings {
  const values = Object.fromEntries(Object.entries(SETTING_DEFINITIONS).map(([key, def]) => [key, def.default])) as CompanySettings;
  for (const [key, value] of Object.entries(stored)) if (Object.hasOwn(values, key)) values[key as SettingKey] = value;
  return values;
}

/**
 * Loads a ticket for the automation. Inside a transaction `lock` takes the
 * ticket row `for update`: two messages of one chat then decide one after the
 * other on the state the first one left.
 */
export async function loadAutomationTicket(db: DbOrTx, scope: TenantScope, ticketId: number, lock = false): Promise<AutomationTicket | null> {
  const [found] = await loadAutomationTickets(db, scope, [ticketId], lock);
  return found ?? null;
}

/** Several tickets at once, in id order; locked rows are taken in that order too, so two lockers never wait on each other in a circle. */
export async function loadAutomationTickets(db: DbOrTx, scope: TenantScope, ticketIds: number[], lock = false): Promise<AutomationTicket[]> {
  if (ticketIds.length === 0) return [];
  const query = db
    .select({
      ticket: tickets,
      contactName: contacts.name,
      contactNumber: contacts.number,
      contactEmail: contacts.email,
      contactIsGroup: contacts.isGroup,
      contactDisableBot: contacts.disableBot,
      connection: whatsapps,
      timezone: companies.timezone,
      schedules: companies.schedules,
      useOpenAi: plans.useOpenAi,
      useIntegrations: plans.useIntegrations,
      // Read with the ticket: the automation decides on them for every message.
      settings: sql<Record<string, string>>`(select coalesce(jsonb_object_agg(s.key, s.value), '{}'::jsonb) from ${settings} s where s.company_id = ${tickets.companyId})`,
      connectionQueueCount: sql<number>`(select count(*)::int from ${whatsappQueues} wq where wq.whatsapp_id = ${tickets.whatsappId})`,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(inTenant(tickets, scope, inArray(tickets.id, ticketIds)))
    .orderBy(asc(tickets.id));
  const rows = lock ? await query.for('update', { of: tickets }) : await query;
  return rows.map((row) => ({
    ticket: row.ticket,
    contact: { name: row.contactName, number: row.contactNumber, email: row.contactEmail, isGroup: row.contactIsGroup, disableBot: row.contactDisableBot },
    connection: row.connection,
    company: { timezone: row.timezone, schedules: row.schedules, useOpenAi: row.useOpenAi, useIntegrations: row.useIntegrations },
    settings: withDefaults(row.settings),
    connectionQueueCount: Number(row.connectionQueueCount),
  }));
}

/** The queues a connection's bot offers, in the menu's order (orderQueue, then name). */
export async function connectionQueues(db: DbOrTx, scope: TenantScope, whatsappId: number): Promise<QueueRow[]> {
  const rows = await db
    .select({ queue: queues })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(inTenant(whatsappQueues, scope, eq(whatsappQueues.whatsappId, whatsappId)))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name), asc(queues.id));
  return rows.map((r) => r.queue);
}

export async function findQueueRow(db: DbOrTx, scope: TenantScope, queueId: number): Promise<QueueRow | null> {
  const [row] = await db
    .select()
    .from(queues)
    .where(inTenant(queues, scope, eq(queues.id, queueId)))
    .limit(1);
  return row ?? null;
}

/** One level of a queue's option tree, in the order the customer reads it. */
export async function optionChildren(db: DbOrTx, scope: TenantScope, queueId: number, parentId: number | null): Promise<QueueOptionRow[]> {
  const rows = await db
    .select()
    .from(queueOptions)
    .where(
      inTenant(queueOptions, scope, eq(queueOptions.queueId, queueId), parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId)),
    );
  return sortOptions(rows);
}

export async function findOptionRow(db: DbOrTx, scope: TenantScope, id: number): Promise<QueueOptionRow | null> {
  const [row] = await db
    .select()
    .from(queueOptions)
    .where(inTenant(queueOptions, scope, eq(queueOptions.id, id)))
    .limit(1);
  return row ?? null;
}
