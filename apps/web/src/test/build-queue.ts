import type { PresentedQueue } from '@atende/shared';

/** A queue as the API presents it, for web tests: "Fila {id}" of company 3, no messages, no hours, no order. Overrides replace whole fields. */
export function buildQueue(id: number, overrides: Partial<PresentedQueue> = {}): PresentedQueue {
  return {
    id,
    name: `Fila ${id}`,
    color: `#${String(id).padStart(6, '0')}`,
    orderQueue: null,
    greetingMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    integrationId: null,
    promptId: null,
    schedules: [],
    mediaPath: null,
    mediaName: null,
    autoAssign: 'off',
    defaultMaxOpenTickets: 5,
    slaFirstResponseMinutes: null,
    slaResolutionMinutes: null,
    slaWarnPercent: 80,
    companyId: 3,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}
