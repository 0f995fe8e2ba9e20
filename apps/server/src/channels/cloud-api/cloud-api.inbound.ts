import { createHash } from 'node:crypto';
import type { MessageData } from '@atende/shared';
import { ingestMessage, type InboundDeps } from '../../inbound/ingest.js';
import type { InboundMessage } from '../../inbound/inbound-message.js';
import {
  applyAck,
  applyBilling,
  applyReaction,
  applySendFailure,
  confirmSendByKey,
  hasPendingMedia,
  isKnownSend,
  settlePendingMedia,
  type DeliveryReportsDeps,
} from '../../inbound/message-updates.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Platform } from '../../platform/platform.js';
import { stripUnsafeText } from '../../platform/text/unsafe-text.js';
import { channelSettings } from '../channel-settings.js';
import { noteConnectionProblem, type ConnectionProblemDeps } from '../connection-problems.js';
import { followNumberChange, type NumberChangeDeps } from '../number-change.js';
import {
  CloudError,
  CloudMessage,
  CloudStatus,
  billingOf,
  cloudErrorCode,
  commonData,
  isMediaMessage,
  mapCloudMessage,
  mediaOf,
  type CloudMediaType,
  type WebhookValue,
} from './cloud-api.mapper.js';
import type { CloudApiProvider } from './cloud-api.provider.js';
import { GraphApiError } from './graph-api.client.js';

/** Statuses to our ack scale (as Baileys': 4 a voice note the customer played); `failed` marks the message failed with its reason. */
const ACKS: Record<string, number> = { sent: 1, delivered: 2, read: 3, played: 4 };

/** The ingest pipeline, the updates of stored messages, the connection's problems, the contacts' numbers and the media storage. */
export type CloudInboundDeps = InboundDeps & DeliveryReportsDeps & ConnectionProblemDeps & NumberChangeDeps & Pick<Platform, 'media'>;

/** The channel's own parts the processing uses. */
export interface CloudInboundContext {
  provider: CloudApiProvider;
  /** Hands a media message to the retried media job. */
  enqueueMedia(job: CloudMediaJob): Promise<void>;
  /** A group's subject (Graph API group info), remembered a while; undefined when Meta does not say. */
  groupSubject(connection: WhatsappRow, groupId: string): Promise<string | undefined>;
  logger: { warn(o: object, m?: string): void; error(o: object, m?: string): void };
}

export interface CloudMediaJob {
  companyId: number;
  whatsappId: number;
  message: CloudMessage;
  contactName?: string;
  /** 1 for the first try; the job queues its own retries so the last one can say the file is unavailable. */
  attempt?: number;
}

/** Who wrote a message: the profile name Meta gave, and for a group message the group's subject. */
interface Sender {
  name?: string;
  groupSubject?: string;
}

/**
 * The message's chat: the customer's own, or (`group_id`, Meta's groups) the group, whose
 * ticket shows each member's name on their messages (`from` is then the member).
 */
function baseInput(connection: Pick<WhatsappRow, 'companyId' | 'id'>, message: CloudMessage, sender: Sender = {}): Omit<InboundMessage, 'body'> {
  const seconds = Number(message.timestamp);
  const member = message.from.replace(/\D/g, '');
  const chat = message.group_id
    ? { from: message.group_id, isGroup: true, contactName: sender.groupSubject, senderName: sender.name || member }
    : { from: member, contactName: sender.name };
  return {
    channel: 'cloud-api',
    companyId: connection.companyId,
    whatsappId: connection.id,
    externalId: message.id,
    ...chat,
    quotedExternalId: message.context?.id ?? null,
    timestamp: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : undefined,
  };
}

/**
 * A media message is stored at once, marked pending, so the customer's message is
 * in the chat while its file is fetched (`processMediaMessage` fills it in).
 */
async function ingestPendingMedia(deps: CloudInboundDeps, cloud: CloudInboundContext, connection: WhatsappRow, message: CloudMessage & { type: CloudMediaType }, sender: Sender): Promise<void> {
  const media = mediaOf(message);
  const data: MessageData = {
    ...commonData(message),
    media: { status: 'pending' },
    ...(media.voice ? { voice: true } : {}),
    ...(message.type === 'sticker' ? { sticker: true } : {}),
  };
  const mediaKind = message.type === 'audio' && media.voice ? 'voice' : message.type;
  await ingestMessage(deps, { ...baseInput(connection, message, sender), body: media.caption ?? media.filename ?? '', mediaKind, data });
  await cloud.enqueueMedia({ companyId: connection.companyId, whatsappId: connection.id, message, contactName: sender.name, attempt: 1 });
}

/**
 * Every message and status of one change, in the order Meta listed them. Answers
 * the statuses of sends not stored here (yet: a status can overtake the answer to
 * the send that stored its id), for the caller to try again a little later.
 */
export async function processWebhookValue(deps: CloudInboundDeps, cloud: CloudInboundContext, connection: WhatsappRow, value: WebhookValue): Promise<unknown[]> {
  const names = new Map((value.contacts ?? []).map((contact) => [contact.wa_id ?? '', contact.profile?.name ?? '']));
  for (const raw of value.errors ?? []) {
    // A change-level error (e.g. 130429 on the webhook) names no message: the connection keeps it for its admins.
    const error = CloudError.safeParse(raw);
    if (error.success) await noteConnectionProblem(deps, connection, cloudErrorCode(error.data.code), error.data);
    cloud.logger.warn({ whatsappId: connection.id, error: raw }, 'Cloud API change-level error');
  }
  let ignoreGroups: boolean | undefined;
  for (const raw of value.messages ?? []) {
    const parsed = CloudMessage.safeParse(raw);
    if (!parsed.success) {
      cloud.logger.warn({ whatsappId: connection.id, issues: parsed.error.issues.slice(0, 3) }, 'webhook message of unknown shape skipped');
      continue;
    }
    const message = parsed.data;
    // Setting CheckMsgIsGroup: a company that ignores groups stores none of their messages (nor asks their names).
    if (message.group_id && (ignoreGroups ??= (await channelSettings(deps.db, connection.companyId)).ignoreGroups)) continue;
    const sender: Sender = {
      name: names.get(message.from) || undefined,
      groupSubject: message.group_id ? await cloud.groupSubject(connection, message.group_id) : undefined,
    };
    if (isMediaMessage(message)) {
      await ingestPendingMedia(deps, cloud, connection, message, sender);
      continue;
    }
    if (message.type === 'reaction' && message.reaction) {
      const target = { companyId: connection.companyId, whatsappId: connection.id, externalId: message.reaction.message_id };
      const emoji = message.reaction.emoji ?? '';
      if (await applyReaction(deps, target, message.from.replace(/\D/g, ''), emoji)) continue;
      // A reaction to a message we do not have (or no longer have) is still shown, as its own line.
      if (!emoji) continue;
      await ingestMessage(deps, { ...baseInput(connection, message, sender), quotedExternalId: null, body: emoji, data: { reaction: { emoji, messageId: message.reaction.message_id } } });
      continue;
    }
    const mapped = mapCloudMessage(message);
    if (!mapped) continue;
    const from = message.from.replace(/\D/g, '');
    await ingestMessage(deps, { ...baseInput(connection, message, sender), ...mapped });
    if (mapped.data?.system?.newNumber && !message.group_id) await followNumberChange(deps, connection, from, mapped.data.system.newNumber);
  }
  const unmatched: unknown[] = [];
  for (const raw of value.statuses ?? []) {
    const parsed = CloudStatus.safeParse(raw);
    if (!parsed.success) continue;
    const status = parsed.data;
    const ack = ACKS[status.status];
    const ref = { companyId: connection.companyId, whatsappId: connection.id, externalId: status.id };
    const billing = billingOf(status);
    if (billing) await applyBilling(deps, ref, billing);
    let changed = false;
    if (ack) changed = await applyAck(deps, ref, ack);
    else if (status.status === 'failed') {
      const error = status.errors?.[0];
      changed = await applySendFailure(deps, ref, cloudErrorCode(error?.code), { code: error?.code, title: error?.title ?? error?.message, details: error?.error_data?.details });
    } else continue;
    if (changed || (await isKnownSend(deps, ref))) continue;
    // A send whose sender stopped before storing Meta's id names itself by our key.
    if (ack && status.biz_opaque_callback_data && (await confirmSendByKey(deps, ref, status.biz_opaque_callback_data, ack))) continue;
    unmatched.push(raw);
  }
  return unmatched;
}

/** Meta's `sha256` of a media file (hex or base64, as it has been given). */
function sha256Matches(data: Buffer, expected: string | undefined): boolean {
  if (!expected) return true;
  const digest = createHash('sha256').update(data).digest();
  return expected.toLowerCase() === digest.toString('hex') || expected === digest.toString('base64');
}

const MEDIA_ATTEMPTS = 6;

/**
 * Fetches a pending media message's file by its id and fills the stored message.
 * Answers 'retry' when another try may succeed; after the last one, or at once
 * for what another try does not change (the file is gone, or its bytes do not
 * match Meta's sha256), the message says the media is unavailable and why.
 */
export async function processMediaMessage(
  deps: CloudInboundDeps,
  cloud: Pick<CloudInboundContext, 'provider' | 'logger'>,
  connection: WhatsappRow,
  job: CloudMediaJob,
): Promise<'done' | 'retry'> {
  const { message } = job;
  if (!isMediaMessage(message)) return 'done';
  const ref = { companyId: connection.companyId, whatsappId: connection.id, externalId: message.id };
  const inner = mediaOf(message);
  // Settled already: the same message came twice (Meta redelivers a webhook it saw no 200 for).
  if (!(await hasPendingMedia(deps, ref))) return 'done';
  if (!inner.id) {
    await settlePendingMedia(deps, ref, { reason: 'ERR_MEDIA_MISSING' });
    return 'done';
  }
  const attempt = job.attempt ?? 1;
  let reason: string;
  try {
    const downloaded = await cloud.provider.client(connection).downloadMedia(inner.id);
    if (sha256Matches(downloaded.data, inner.sha256)) {
      const mimeType = (downloaded.mimeType || inner.mime_type || 'application/octet-stream').split(';')[0]?.trim() || 'application/octet-stream';
      const extension = mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '').slice(0, 8) || 'bin';
      const fileName = inner.filename || `${message.type}-${inner.id}.${extension}`;
      const saved = await deps.media.save({ companyId: connection.companyId }, { data: downloaded.data, fileName, mimeType });
      // The stored file's name is made safe for the disk; the customer's file keeps the name it was sent with.
      const media = { ...saved, name: inner.filename ? stripUnsafeText(inner.filename).slice(0, 255) || saved.name : saved.name };
      if (!(await settlePendingMedia(deps, ref, { media }))) await deps.media.remove({ companyId: connection.companyId }, media.path).catch(() => undefined);
      return 'done';
    }
    reason = 'ERR_MEDIA_CHECKSUM';
  } catch (error) {
    // Gone (404/410) or refused for good: no retry helps.
    const status = error instanceof GraphApiError ? error.status : 0;
    reason = status === 404 || status === 410 ? 'ERR_MEDIA_EXPIRED' : error instanceof AppError && error.code === 'ERR_PAYLOAD_TOO_LARGE' ? 'ERR_PAYLOAD_TOO_LARGE' : 'ERR_MEDIA_DOWNLOAD';
    if (reason === 'ERR_MEDIA_DOWNLOAD' && attempt < MEDIA_ATTEMPTS) {
      cloud.logger.warn({ whatsappId: connection.id, attempt, err: error }, 'Cloud API media download failed; retrying');
      return 'retry';
    }
  }
  await settlePendingMedia(deps, ref, { reason });
  return 'done';
}
