/**
 * Response-time targets (issue 35): what the bell and the sockets say of a missed target,
 * and the dashboard's "targets met" answer. Type-only: the web's bundle pays nothing.
 */

type SlaBreachKind = 'first_response' | 'resolution';

/** `GET /sla/breaches` and `company-{id}-slaBreach`: a target a ticket missed. */
export interface PresentedSlaBreach {
  id: number;
  ticketId: number;
  ticketUuid: string;
  contactName: string;
  kind: SlaBreachKind;
  dueAt: string;
  breachedAt: string;
  userId: number | null;
  queueId: number | null;
  queueName: string | null;
}

export interface SlaBreachEventPayload {
  action: 'create';
  breach: PresentedSlaBreach;
}

/** Targets met and missed in one group; `rate` is met ÷ (met + missed), 0–100, null when none ended. */
export interface SlaTally {
  firstResponseMet: number;
  firstResponseMissed: number;
  resolutionMet: number;
  resolutionMissed: number;
  rate: number | null;
}

/** `GET /dashboard/sla`: targets due in the range, per queue, per agent and per day (the company's zone). */
export interface SlaReport {
  from: string;
  to: string;
  total: SlaTally;
  queues: Array<SlaTally & { queueId: number; name: string; color: string }>;
  /** `userId` null: the targets of tickets nobody had accepted. */
  agents: Array<SlaTally & { userId: number | null; name: string }>;
  days: Array<SlaTally & { day: string }>;
}

/** A ticket's mark at `now` from its next target's due and warning instants (ISO or Date); null without a target. */
export function slaStateAt(dueAt: string | Date | null, warnAt: string | Date | null, now: Date): 'ok' | 'warning' | 'breached' | null {
  if (dueAt === null) return null;
  const at = now.getTime();
  if (new Date(dueAt).getTime() <= at) return 'breached';
  if (warnAt !== null && new Date(warnAt).getTime() <= at) return 'warning';
  return 'ok';
}
