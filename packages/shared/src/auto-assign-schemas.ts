import { z } from 'zod';

/**
 * Auto-assignment (issue 35): a queue gives its waiting tickets to its online agents who
 * are under capacity. `round_robin` takes the agent after the one assigned last;
 * `balanced` the one with the fewest open tickets (ties: the longest without a ticket).
 */
export const AUTO_ASSIGN_MODES = ['off', 'round_robin', 'balanced'] as const;
export type AutoAssignMode = (typeof AUTO_ASSIGN_MODES)[number];

/** The most open tickets an agent can be given, and a queue's default for agents without their own. */
export const MAX_OPEN_TICKETS_LIMIT = 1000;
export const DEFAULT_MAX_OPEN_TICKETS = 5;

const capacity = () =>
  z.coerce
    .number({ error: 'validation.invalidNumber' })
    .int('validation.invalidNumber')
    .min(1, 'validation.capacityRange')
    .max(MAX_OPEN_TICKETS_LIMIT, 'validation.capacityRange');

/** The queue form's auto-assignment fields (create: with defaults; update: only what is sent). */
export const autoAssignQueueFields = {
  autoAssign: z.enum(AUTO_ASSIGN_MODES, { error: 'validation.invalidValue' }),
  defaultMaxOpenTickets: capacity(),
};

/** A user's own capacity: null (or '') is the queue's default. null and '' first: a coerced number reads both as 0. */
export const maxOpenTicketsField = () => z.union([z.null(), z.literal('').transform(() => null), capacity()]);

/** `GET /dashboard/agentLoad`: each agent's open tickets against its capacity, and whether it is online. */
export const AgentLoadSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  online: z.boolean(),
  openTickets: z.number().int(),
  /** The agent's own capacity, or the largest default of its auto-assigning queues; null: it is in none. */
  capacity: z.number().int().nullable(),
  /** Whether `capacity` is the agent's own (false: a queue's default). */
  ownCapacity: z.boolean(),
  /** The agent's queues that assign automatically. */
  autoAssignQueueIds: z.array(z.number().int()),
});
export type AgentLoad = z.output<typeof AgentLoadSchema>;
export const AgentLoadAnswerSchema = z.object({ agents: z.array(AgentLoadSchema) });
export type AgentLoadAnswer = z.output<typeof AgentLoadAnswerSchema>;
