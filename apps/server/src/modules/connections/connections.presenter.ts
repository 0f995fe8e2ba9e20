import { presentSchedules, type PresentedConnection, type PresentedConnectionForAdmin, type PresentedConnectionSession } from '@atende/shared';
import { maskSecret, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import type { RequestContext } from '../../platform/http/context.js';
import { providerKindOf, type SessionAction } from './channel-provider.js';
import { CLOUD_API_WEBHOOK_PATH, openSecrets } from './cloud-api-settings.js';
import { isConnectionAdmin } from './connections.policy.js';
import type { ConnectionDetail } from './connections.repo.js';

/**
 * What every user of the company may see of a connection (ticket screens name
 * connections; the side menu's badge reads statuses). This is also the payload
 * of `company-{id}-whatsapp`, which reaches the whole company.
 */
export function presentConnection(connection: ConnectionDetail): PresentedConnection {
  return {
    id: connection.id,
    name: connection.name,
    status: connection.status,
    isDefault: connection.isDefault,
    provider: connection.provider,
    number: connection.number,
    retries: connection.retries,
    companyId: connection.companyId,
    greetingMessage: connection.greetingMessage,
    complationMessage: connection.complationMessage,
    outOfHoursMessage: connection.outOfHoursMessage,
    ratingMessage: connection.ratingMessage,
    expiresInactiveMessage: connection.expiresInactiveMessage,
    pix: connection.pix,
    pixMessage: connection.pixMessage,
    expiresTicket: connection.expiresTicket,
    timeUseBotQueues: connection.timeUseBotQueues,
    maxUseBotQueues: connection.maxUseBotQueues,
    timeToTransfer: connection.timeToTransfer,
    transferQueueId: connection.transferQueueId,
    promptId: connection.promptId,
    integrationId: connection.integrationId,
    queueIds: connection.queues.map((queue) => queue.id),
    queues: connection.queues,
    schedules: presentSchedules(connection.schedules),
    greetingMediaPath: connection.greetingMediaPath !== null ? connection.greetingMediaName : null,
    greetingMediaName: connection.greetingMediaPath !== null ? connection.greetingMediaName : null,
    /** Why the connection needs its admin (code and the channel's words), or null. */
    problem: connection.problem ?? null,
    createdAt: connection.createdAt.toISOString(),
    updatedAt: connection.updatedAt.toISOString(),
  };
}

interface PresentOptions {
  /** The caller may edit connections: it sees the API token and the Cloud API settings (secrets masked). */
  admin: boolean;
  /** Session detail (the QR code); `GET /whatsapp?session=0` leaves it out. */
  session: boolean;
  secrets: SecretBox;
}

function presentConnectionFor(connection: ConnectionDetail, options: PresentOptions): PresentedConnection | PresentedConnectionForAdmin {
  const base = presentConnection(connection);
  if (!options.admin) return base;
  return {
    ...base,
    token: connection.token ?? '',
    cloudApi: providerKindOf(connection.provider) === 'cloud-api' ? presentCloudApiConfig(connection, options.secrets) : null,
    ...(options.session ? { qrcode: connection.qrcode } : {}),
  };
}

/** A connection as this caller may see it (`GET /whatsapp?session=0` leaves the QR code out). */
export function present(secrets: SecretBox, ctx: RequestContext, connection: ConnectionDetail, session: boolean) {
  return presentConnectionFor(connection, { admin: isConnectionAdmin(ctx), session, secrets });
}

/** What an admin sees of the configuration: the secrets masked, never whole. */
function presentCloudApiConfig(row: Pick<WhatsappRow, 'providerConfig' | 'providerSecrets'>, secrets: SecretBox) {
  const opened = openSecrets(row, secrets);
  return {
    phoneNumberId: row.providerConfig.phoneNumberId ?? '',
    wabaId: row.providerConfig.wabaId ?? '',
    verifyToken: row.providerConfig.verifyToken ?? '',
    graphApiBaseUrl: row.providerConfig.graphApiBaseUrl ?? '',
    accessToken: maskSecret(opened.accessToken),
    appSecret: maskSecret(opened.appSecret),
    webhookPath: CLOUD_API_WEBHOOK_PATH,
  };
}

const SESSION_ACTION_MESSAGES: Record<SessionAction, string> = {
  retry: 'Starting session.',
  newQr: 'Starting session.',
  disconnect: 'Session disconnected.',
};

/** The answer of `/whatsappsession/:id`: what was done, and the session right after it. */
export function presentSessionAction(action: SessionAction, connection: WhatsappRow) {
  return { message: SESSION_ACTION_MESSAGES[action], session: presentSession(connection) };
}

/** Payload of `company-{id}-whatsappSession` (admins only: it carries the QR code). */
export function presentSession(connection: WhatsappRow): PresentedConnectionSession {
  return {
    id: connection.id,
    name: connection.name,
    status: connection.status,
    qrcode: connection.qrcode,
    retries: connection.retries,
    number: connection.number,
    provider: connection.provider,
    isDefault: connection.isDefault,
    problem: connection.problem ?? null,
    updatedAt: connection.updatedAt.toISOString(),
  };
}
