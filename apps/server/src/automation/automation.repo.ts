import { SETTING_DEFINITIONS, type SettingKey } from '@atende/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
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

export type CompanySettings = Record<SettingKey, string>;

/** A ticket with everything the automation decides on: contact, connection, company clock and plan, settings. */
export interface AutomationTicket {
  ticket: TicketRow;
  contact: { name: string; number: string; isGroup: boolean };
  connection: WhatsappRow | null;
  company: { timezone: string; schedules: ScheduleRow[]; useOpenAi: boolean; useIntegrations: boolean };
  settings: CompanySettings;
}

export async function loadSettings(db: DbOrTx, scope: TenantScope): Promise<CompanySettings> {
  const rows = await db.select({ key: settings.key, value: settings.value }).from(settings).where(eq(settings.companyId, scope.companyId));
  const values = Object.fromEntries(Object.entries(SETTING_DEFINITIONS).map(([key, def]) => [key, def.default])) as CompanySettings;
  for (const row of rows) if (Object.hasOwn(values, row.key)) values[row.key as SettingKey] = row.value;
  return values;
}

export async function loadSetting(db: DbOrTx, scope: TenantScope, key: SettingKey): Promise<string> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, scope.companyId), eq(settings.key, key)))
    .limit(1);
  return row?.value ?? SETTING_DEFINITIONS[key].default;
}

/**
 * Loads a ticket for the automation. Inside a transaction `lock` takes the
 * ticket row `for update`: two messages of one chat then decide one after the
 * other on the state the first one left.
 */
export async function loadAutomationTicket(db: DbOrTx, scope: TenantScope, ticketId: number, lock = false): Promise<AutomationTicket | null> {
  const query = db
    .select({
      ticket: tickets,
      contactName: contacts.name,
      contactNumber: contacts.number,
      contactIsGroup: contacts.isGroup,
      connection: whatsapps,
      timezone: companies.timezone,
      schedules: companies.schedules,
      useOpenAi: plans.useOpenAi,
      useIntegrations: plans.useIntegrations,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, ticketId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: tickets }) : await query;
  if (!row) return null;
  return {
    ticket: row.ticket,
    contact: { name: row.contactName, number: row.contactNumber, isGroup: row.contactIsGroup },
    connection: row.connection,
    company: { timezone: row.timezone, schedules: row.schedules, useOpenAi: row.useOpenAi, useIntegrations: row.useIntegrations },
    settings: await loadSettings(db, scope),
  };
}

/** The queues a connection's bot offers, in the menu's order (orderQueue, then name). */
export async function connectionQueues(db: DbOrTx, scope: TenantScope, whatsappId: number): Promise<QueueRow[]> {
  const rows = await db
    .select({ queue: queues })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(and(eq(whatsappQueues.companyId, scope.companyId), eq(whatsappQueues.whatsappId, whatsappId)))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name), asc(queues.id));
  return rows.map((r) => r.queue);
}

export async function findQueueRow(db: DbOrTx, scope: TenantScope, queueId: number): Promise<QueueRow | null> {
  const [row] = await db
    .select()
    .from(queues)
    .where(and(eq(queues.companyId, scope.companyId), eq(queues.id, queueId)))
    .limit(1);
  return row ?? null;
}

/** One level of a queue's option tree, in the order the customer reads it. */
export async function optionChildren(db: DbOrTx, scope: TenantScope, queueId: number, parentId: number | null): Promise<QueueOptionRow[]> {
  const rows = await db
    .select()
    .from(queueOptions)
    .where(
      and(
        eq(queueOptions.companyId, scope.companyId),
        eq(queueOptions.queueId, queueId),
        parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
      ),
    );
  return sortOptions(rows);
}

/** Numeric positions in number order ('2' before '10'). */
export function sortOptions<T extends { option: string; id: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => Number(a.option) - Number(b.option) || a.option.localeCompare(b.option) || a.id - b.id);
}

export async function findOptionRow(db: DbOrTx, scope: TenantScope, id: number): Promise<QueueOptionRow | null> {
  const [row] = await db
    .select()
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, scope.companyId), eq(queueOptions.id, id)))
    .limit(1);
  return row ?? null;
}
