import type { AssignAgent, AssignQueue, WaitingTicket } from './auto-assign.repo.js';

export interface AssignmentPlan {
  assignments: { ticketId: number; userId: number }[];
  /** round_robin queues: the agent assigned last in this round. */
  cursors: Map<number, number>;
}

interface AgentState {
  userId: number;
  openTickets: number;
  maxOpenTickets: number | null;
  lastAssignedAt: number;
}

/**
 * Decides a round (no I/O): each waiting ticket, oldest first, goes to an online agent of
 * its queue under capacity (the agent's own `maxOpenTickets`, else the queue's default);
 * a ticket nobody has room for waits. round_robin: the first agent after the queue's
 * cursor (by user id, wrapping); balanced: the fewest open tickets, then the longest since
 * its last assigned ticket (never assigned first), then the lower id. Loads count across
 * queues and grow with each choice, so one round never exceeds a capacity.
 */
export function planAssignments(queues: AssignQueue[], agents: AssignAgent[], tickets: WaitingTicket[], now: number): AssignmentPlan {
  const queueById = new Map(queues.map((q) => [q.id, q]));
  const states = new Map<number, AgentState>();
  const members = new Map<number, AgentState[]>();
  for (const agent of agents) {
    let state = states.get(agent.userId);
    if (!state) {
      state = { userId: agent.userId, openTickets: agent.openTickets, maxOpenTickets: agent.maxOpenTickets, lastAssignedAt: agent.lastAssignedAt?.getTime() ?? -Infinity };
      states.set(agent.userId, state);
    }
    const list = members.get(agent.queueId) ?? [];
    list.push(state);
    members.set(agent.queueId, list);
  }
  for (const list of members.values()) list.sort((a, b) => a.userId - b.userId);

  const cursors = new Map<number, number>();
  const assignments: AssignmentPlan['assignments'] = [];
  for (const ticket of tickets) {
    const queue = queueById.get(ticket.queueId);
    if (!queue) continue;
    const room = (members.get(queue.id) ?? []).filter((a) => a.openTickets < (a.maxOpenTickets ?? queue.defaultMax));
    if (room.length === 0) continue;
    let chosen: AgentState | undefined;
    if (queue.mode === 'round_robin') {
      const cursor = cursors.get(queue.id) ?? queue.cursorUserId ?? 0;
      chosen = room.find((a) => a.userId > cursor) ?? room[0];
    } else {
      chosen = room.reduce((best, a) =>
        a.openTickets < best.openTickets || (a.openTickets === best.openTickets && a.lastAssignedAt < best.lastAssignedAt) ? a : best,
      );
    }
    if (!chosen) continue;
    if (queue.mode === 'round_robin') cursors.set(queue.id, chosen.userId);
    chosen.openTickets += 1;
    // Later choices of the round are later in time: ties between them go to the earlier one.
    chosen.lastAssignedAt = now + assignments.length / 1000;
    assignments.push({ ticketId: ticket.id, userId: chosen.userId });
  }
  return { assignments, cursors };
}
