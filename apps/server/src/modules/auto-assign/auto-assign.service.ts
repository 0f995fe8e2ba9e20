import type { AgentLoadAnswer } from '@atende/shared';
import { requireAdmin } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { loadSession } from '../auth/session.repo.js';
import type { TicketDetail } from '../tickets/tickets.presenter.js';
import { findTicketDetail } from '../tickets/tickets.repo.js';
import { planAssignments } from './auto-assign-plan.js';
import { agentLoads, applyAssignments, autoAssignQueues, companiesWithWaitingTickets, lockCompanyAssignment, lockWaitingTickets, onlineAgents } from './auto-assign.repo.js';

/** The most tickets one round locks and assigns; a full round is followed by another at once. */
const ROUND_LIMIT = 500;
/** How often each node looks for waiting tickets nobody's trigger reached (a node that died after a commit). */
const SWEEP_MS = 15_000;
/**
 * A round that found a waiting ticket held by another transaction runs again this soon: the
 * holder may commit without any trigger following (the bot's turn that leaves a ticket as it
 * was, an edit of other fields), and the sweep is too far away for a ticket that could be given now.
 */
const RETRY_MS = 100;

export type AutoAssignDeps = Pick<Platform, 'db' | 'events' | 'logger'>;

/**
 * One round for a company, in one transaction under the company's assignment lock:
 * waiting tickets (locked, oldest first), online agents with their open tickets counted
 * now, the plan, and the writes. Answers the tickets it assigned and to whom.
 */
async function assignRound(deps: Pick<AutoAssignDeps, 'db'>, scope: TenantScope): Promise<{ assigned: { ticketId: number; userId: number }[]; skipped: boolean }> {
  return deps.db.transaction(async (tx) => {
    await lockCompanyAssignment(tx, scope);
    const queues = await autoAssignQueues(tx, scope);
    if (queues.length === 0) return { assigned: [], skipped: false };
    const queueIds = queues.map((q) => q.id);
    const { tickets, skipped } = await lockWaitingTickets(tx, scope, queueIds, ROUND_LIMIT);
    if (tickets.length === 0) return { assigned: [], skipped };
    const agents = await onlineAgents(tx, scope, queueIds);
    if (agents.length === 0) return { assigned: [], skipped: false };
    const plan = planAssignments(queues, agents, tickets, Date.now());
    const written = new Set(await applyAssignments(tx, scope, plan.assignments, plan.cursors));
    return { assigned: plan.assignments.filter((a) => written.has(a.ticketId)), skipped };
  });
}

/**
 * What follows an assignment, as after an agent's accept (tickets.service updateTicket):
 * the ticket's update to its audience at once, and (the answered function, run after the
 * previous rounds' ones) `ticket.changedByAgent` in the agent's name, so the automation
 * stops the bots and sends the accept greeting by the same rules. The automation is not on
 * the way of the screens: one agent's greeting after another's made the 1,000th ticket of a
 * burst reach its agent's screen after every earlier greeting.
 */
async function announce(deps: AutoAssignDeps, scope: TenantScope, assigned: { ticketId: number; userId: number }[]): Promise<() => Promise<void>> {
  const tickets = await Promise.all(assigned.map(({ ticketId }) => findTicketDetail(deps.db, scope, ticketId)));
  const changes: { ticket: TicketDetail; previous: TicketDetail; userId: number }[] = [];
  for (const [i, ticket] of tickets.entries()) {
    const userId = assigned[i]?.userId;
    if (!ticket || userId === undefined) continue;
    const previous = { ...ticket, status: 'pending' as const, userId: null, user: null };
    // The screens first, at once; the automation's answers after.
    deps.events.emit('ticket.updated', { companyId: scope.companyId, ticket, previous });
    changes.push({ ticket, previous, userId });
  }
  return async () => {
    const sessions = new Map<number, Promise<RequestContext | null>>();
    const session = (userId: number) => sessions.get(userId) ?? sessions.set(userId, loadSession(deps.db, userId)).get(userId) ?? Promise.resolve(null);
    // A few at a time: each may send a greeting.
    for (let i = 0; i < changes.length; i += 8) {
      await Promise.all(
        changes.slice(i, i + 8).map(async ({ ticket, previous, userId }) => {
          const ctx = await session(userId);
          if (ctx) await deps.events.publish('ticket.changedByAgent', { ctx, previous, ticket });
        }),
      );
    }
  };
}

export interface AutoAssigner {
  /** Something may let a waiting ticket of the company be assigned: a round runs soon (coalesced). */
  request(companyId: number): void;
  /** Resolves when no round is running or due on this node (tests, the benchmark). */
  settled(): Promise<void>;
  /** Starts the sweep (every SWEEP_MS). */
  start(): void;
  stop(): void;
}

/**
 * Per node: at most one round per company at a time; a request during a round makes one
 * more round after it, so a burst of triggers costs a couple of rounds, not one each. The
 * announcements run after the round's commit, in order, without holding up the next round.
 */
export function createAutoAssigner(deps: AutoAssignDeps): AutoAssigner {
  const running = new Map<number, Promise<void>>();
  const again = new Set<number>();
  const retries = new Map<number, NodeJS.Timeout>();
  let timer: NodeJS.Timeout | null = null;
  let announcing: Promise<void> = Promise.resolve();

  /** Another round for the company in RETRY_MS (one pending at a time). */
  function retry(companyId: number): void {
    if (retries.has(companyId)) return;
    const pending = setTimeout(() => {
      retries.delete(companyId);
      request(companyId);
    }, RETRY_MS);
    pending.unref();
    retries.set(companyId, pending);
  }

  async function loop(companyId: number): Promise<void> {
    const scope = { companyId };
    do {
      again.delete(companyId);
      let assigned: { ticketId: number; userId: number }[];
      let skipped = false;
      do {
        ({ assigned, skipped } = await assignRound(deps, scope));
        if (assigned.length > 0) {
          const automation = await announce(deps, scope, assigned).catch((error: unknown) => {
            deps.logger.error({ err: error, companyId }, 'auto-assignment announcement failed');
            return async () => undefined;
          });
          announcing = announcing.then(automation).catch((error: unknown) => deps.logger.error({ err: error, companyId }, 'auto-assignment automation failed'));
        }
      } while (assigned.length >= ROUND_LIMIT);
      if (skipped && !again.has(companyId)) retry(companyId);
    } while (again.has(companyId));
  }

  function request(companyId: number): void {
    if (running.has(companyId)) {
      again.add(companyId);
      return;
    }
    const run = loop(companyId)
      .catch((error: unknown) => deps.logger.error({ err: error, companyId }, 'auto-assignment round failed'))
      .finally(() => running.delete(companyId));
    running.set(companyId, run);
  }

  async function sweep(): Promise<void> {
    try {
      for (const companyId of await companiesWithWaitingTickets(deps.db)) request(companyId);
    } catch (error) {
      deps.logger.error({ err: error }, 'auto-assignment sweep failed');
    }
  }

  return {
    request,
    async settled() {
      while (running.size > 0 || retries.size > 0) {
        await Promise.all(running.values());
        if (running.size === 0 && retries.size > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
      await announcing;
    },
    start() {
      if (timer) return;
      timer = setInterval(() => void sweep(), SWEEP_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      for (const pending of retries.values()) clearTimeout(pending);
      retries.clear();
    },
  };
}

/**
 * `GET /dashboard/agentLoad` (admins): each user's open tickets against its capacity (its
 * own, else the largest default of its auto-assigning queues) and whether it is online.
 */
export async function readAgentLoad(deps: Pick<AutoAssignDeps, 'db'>, ctx: RequestContext): Promise<AgentLoadAnswer> {
  requireAdmin(ctx);
  const rows = await agentLoads(deps.db, ctx);
  return {
    agents: rows.map((row) => ({
      id: row.id,
      name: row.name,
      online: row.online,
      openTickets: row.openTickets,
      capacity: row.maxOpenTickets ?? row.queueDefault,
      ownCapacity: row.maxOpenTickets !== null,
      autoAssignQueueIds: row.autoAssignQueueIds,
    })),
  };
}
