import type { PresentedConnection, PresentedConnectionSession } from '@atende/shared';

/**
 * A connection as the API presents it to every user, for web tests: "Conexão {id}",
 * a CONNECTED sandbox of company 3, not the default, no queues, timers off.
 * Overrides replace whole fields.
 */
export function buildConnection(id: number, overrides: Partial<PresentedConnection> = {}): PresentedConnection {
  return {
    id,
    name: `Conexão ${id}`,
    status: 'CONNECTED',
    isDefault: false,
    provider: 'sandbox',
    number: '',
    retries: 0,
    companyId: 3,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    expiresInactiveMessage: '',
    pix: '',
    pixMessage: '',
    expiresTicket: 0,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    timeToTransfer: 0,
    transferQueueId: null,
    promptId: null,
    integrationId: null,
    queueIds: [],
    queues: [],
    schedules: [],
    greetingMediaPath: null,
    greetingMediaName: null,
    problem: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** `company-{id}-whatsappSession`'s `session` of that connection. Overrides replace whole fields. */
export function buildConnectionSession(id: number, overrides: Partial<PresentedConnectionSession> = {}): PresentedConnectionSession {
  return {
    id,
    name: `Conexão ${id}`,
    status: 'CONNECTED',
    qrcode: '',
    retries: 0,
    number: '',
    provider: 'sandbox',
    isDefault: false,
    problem: null,
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}
