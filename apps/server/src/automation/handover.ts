import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import { queues, users, type TicketRow } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { type TicketChange } from './bot-effects.js';
import { inTenant } from '../platform/db/tenant.js';
import { readBotState } from '../modules/tickets/bot-state.js';

/** Where a bot sends the ticket when it stops: a queue, a user, or (neither) stays where it is. */
export interface HandoverTarget {
  queueId?: number | null;
  userId?: number | null;
}

async function existsInTenant(db: DbOrTx, scope: TenantScope, table: typeof queues | typeof users, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(inTenant(table, scope, eq(table.id, id)))
    .limit(1);
  return row !== undefined;
}

/**
 * The column changes that take a ticket off the bots (integration, prompt,
 * chatbot) and give it to the agents. A target named by a bot (a Typebot
 * command, a webhook reply) is trusted only inside the ticket's company; a
 * user makes the ticket open with that user, otherwise it waits as pending.
 */
export async function handoverChange(db: DbOrTx, scope: TenantScope, ticket: TicketRow, target: HandoverTarget = {}): Promise<TicketChange> {
  // A first turn still due is dropped too: the ticket is the agents' now, where it is.
  const { typebot: _typebot, invalid: _invalid, startDue: _startDue, ...state } = readBotState(ticket.botState);
  const change: TicketChange = {
    chatbot: false,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    botState: state as Record<string, unknown>,
  };
  if (target.queueId && (await existsInTenant(db, scope, queues, target.queueId))) change.queueId = target.queueId;
  if (target.userId && (await existsInTenant(db, scope, users, target.userId))) {
    change.userId = target.userId;
    change.status = 'open';
  }
  return change;
}
