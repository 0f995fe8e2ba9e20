import type { PresentedSlaBreach, SlaReport, SlaTally } from '@atende/shared';
import type { BreachDetail, SlaTallyRow } from './sla.repo.js';

export function presentSlaBreach(breach: BreachDetail): PresentedSlaBreach {
  return {
    id: breach.id,
    ticketId: breach.ticketId,
    ticketUuid: breach.ticketUuid,
    contactName: breach.contactName,
    kind: breach.kind,
    dueAt: breach.dueAt.toISOString(),
    breachedAt: breach.breachedAt.toISOString(),
    userId: breach.userId,
    queueId: breach.queueId,
    queueName: breach.queueName,
  };
}

function tally(row: SlaTallyRow | undefined): SlaTally {
  const firstResponseMet = row?.firstResponseMet ?? 0;
  const firstResponseMissed = row?.firstResponseMissed ?? 0;
  const resolutionMet = row?.resolutionMet ?? 0;
  const resolutionMissed = row?.resolutionMissed ?? 0;
  const ended = firstResponseMet + firstResponseMissed + resolutionMet + resolutionMissed;
  return { firstResponseMet, firstResponseMissed, resolutionMet, resolutionMissed, rate: ended === 0 ? null : Math.round(((firstResponseMet + resolutionMet) * 1000) / ended) / 10 };
}

export function presentSlaReport(report: { from: string; to: string; rows: SlaTallyRow[] }): SlaReport {
  const of = (group: SlaTallyRow['group']) => report.rows.filter((row) => row.group === group);
  return {
    from: report.from,
    to: report.to,
    total: tally(of('total')[0]),
    queues: of('queue').flatMap((row) => (row.queueId === null ? [] : [{ ...tally(row), queueId: row.queueId, name: row.queueName ?? '', color: row.queueColor ?? '' }])),
    agents: of('agent').map((row) => ({ ...tally(row), userId: row.userId, name: row.userName ?? '' })),
    days: of('day').flatMap((row) => (row.day === null ? [] : [{ ...tally(row), day: row.day }])),
  };
}
