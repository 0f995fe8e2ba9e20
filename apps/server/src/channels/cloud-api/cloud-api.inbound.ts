import { createHash } from 'node:crypto';
import { orderSummary, type ErrorCode, type MessageData, type MessageDataContact } from '@atende/shared';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { ingestMessage } from '../../inbound/ingest.js';
import type { InboundMessage } from '../../inbound/inbound-message.js';
import { applyAck, applyReaction, applySendFailure, isKnownSend, settlePendingMedia } from '../../inbound/message-updates.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { stripUnsafeText } from '../../platform/text/unsafe-text.js';
import { noteConnectionProblem } from '../connection-problems.js';
import { followNumberChange } from '../number-change.js';
import type { CloudApiProvider } from './cloud-api.provider.js';
import { GraphApiError } from './graph-api.client.js';

const Loose = z.record(z.string(), z.unknown());
const text = z.string().max(100_000);

/** One message of a `messages` webhook (Meta's webhook reference); unknown fields pass through. */
export const CloudMessage = z
  .object({
    from: z.string(),
    id: z.string(),
    timestamp: z.string().optional(),
    type: z.string(),
    context: z.object({ id: z.string().optional(), forwarded: z.boolean().optional(), frequently_forwarded: z.boolean().optional() }).passthrough().optional(),
    text: z.object({ body: text }).passthrough().optional(),
    image: Loose.optional(),
    video: Loose.optional(),
    audio: Loose.optional(),
    document: Loose.optional(),
    sticker: Loose.optional(),
    location: z
      .object({ latitude: z.number(), longitude: z.number(), name: text.optional(), address: text.optional(), url: text.optional() })
      .passthrough()
      .optional(),
    contacts: z
      .array(
        z
          .object({
            name: z.object({ formatted_name: text.optional(), first_name: text.optional(), last_name: text.optional() }).passthrough().optional(),
            phones: z.array(z.object({ phone: text.optional(), wa_id: text.optional(), type: text.optional() }).passthrough()).optional(),
            emails: z.array(z.object({ email: text.optional(), type: text.optional() }).passthrough()).optional(),
            org: z.object({ company: text.optional() }).passthrough().optional(),
          })
          .passthrough(),
      )
      .max(100)
      .optional(),
    interactive: z
      .object({
        type: z.string().optional(),
        button_reply: z.object({ id: text.optional(), title: text }).passthrough().optional(),
        list_reply: z.object({ id: text.optional(), title: text, description: text.optional() }).passthrough().optional(),
        nfm_reply: z.object({ name: text.optional(), body: text.optional(), response_json: text.optional() }).passthrough().optional(),
      })
      .passthrough()
      .optional(),
    button: z.object({ text, payload: text.optional() }).passthrough().optional(),
    reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).passthrough().optional(),
    order: z
      .object({
        catalog_id: text.optional(),
        text: text.optional(),
        product_items: z
          .array(z.object({ product_retailer_id: text, quantity: z.coerce.number(), item_price: z.coerce.number(), currency: text }).passthrough())
          .max(1000)
          .optional(),
      })
      .passthrough()
      .optional(),
    system: z.object({ body: text.optional(), type: text.optional(), wa_id: text.optional(), new_wa_id: text.optional() }).passthrough().optional(),
    unsupported: z.object({ type: text.optional() }).passthrough().optional(),
    errors: z.array(z.object({ code: z.number().optional(), title: text.optional(), message: text.optional() }).passthrough()).optional(),
    referral: z
      .object({
        source_url: text.optional(),
        source_type: text.optional(),
        source_id: text.optional(),
        headline: text.optional(),
        body: text.optional(),
        media_type: text.optional(),
        image_url: text.optional(),
        video_url: text.optional(),
        ctwa_clid: text.optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type CloudMessage = z.infer<typeof CloudMessage>;

const CloudError = z.object({ code: z.number().optional(), title: text.optional(), message: text.optional(), error_data: z.object({ details: text.optional() }).passthrough().optional() }).passthrough();

const CloudStatus = z
  .object({
    id: z.string(),
    status: z.string(),
    recipient_id: z.string().optional(),
    errors: z.array(CloudError).optional(),
  })
  .passthrough();

export const WebhookValue = z
  .object({
    metadata: z.object({ phone_number_id: z.string().optional() }).passthrough().optional(),
    contacts: z.array(z.object({ wa_id: z.string().optional(), profile: z.object({ name: z.string().optional() }).passthrough().optional() }).passthrough()).optional(),
    messages: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
    errors: z.array(z.unknown()).optional(),
  })
  .passthrough();
export type WebhookValue = z.infer<typeof WebhookValue>;

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
type CloudMediaType = (typeof MEDIA_TYPES)[number];

export function isMediaMessage(message: CloudMessage): message is CloudMessage & { type: CloudMediaType } {
  return (MEDIA_TYPES as readonly string[]).includes(message.type);
}

/** The media object of a media message (Meta: id, mime_type, sha256, caption, filename, voice, animated). */
interface CloudMedia {
  id?: string;
  caption?: string;
  filename?: string;
  mime_type?: string;
  sha256?: string;
  voice?: boolean;
}

export function mediaOf(message: CloudMessage & { type: CloudMediaType }): CloudMedia {
  const inner = (message[message.type] ?? {}) as Record<string, unknown>;
  const str = (key: string) => (typeof inner[key] === 'string' ? (inner[key] as string) : undefined);
  return { id: str('id'), caption: str('caption'), filename: str('filename'), mime_type: str('mime_type'), sha256: str('sha256'), voice: inner.voice === true };
}

/** Statuses to our ack scale; `failed` marks the message failed with its reason. */
const ACKS: Record<string, number> = { sent: 1, delivered: 2, read: 3 };

/** Meta's error codes to ours, for a refused send and for a `failed` status alike. */
export function cloudErrorCode(code: number | null | undefined): ErrorCode {
  switch (code) {
    case 131047:
      return 'ERR_OUTSIDE_CUSTOMER_WINDOW';
    case 131026:
      return 'ERR_WA_UNDELIVERABLE';
    case 130429:
    case 131048:
    case 131056:
      return 'ERR_WA_RATE_LIMITED';
    case 190:
      return 'ERR_WA_TOKEN_INVALID';
    default:
      return 'ERR_SENDING_WAPP_MSG';
  }
}

function vcardOf(contact: MessageDataContact): string {
  const phones = contact.phones.map((phone) => `TEL;type=${(phone.type ?? 'CELL').toUpperCase()}${phone.waId ? `;waid=${phone.waId}` : ''}:${phone.phone}`);
  const emails = (contact.emails ?? []).map((email) => `EMAIL${email.type ? `;type=${email.type.toUpperCase()}` : ''}:${email.email}`);
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${contact.name}`, ...(contact.organization ? [`ORG:${contact.organization}`] : []), ...phones, ...emails, 'END:VCARD'].join('\n');
}

function contactsOf(message: CloudMessage): MessageDataContact[] {
  return (message.contacts ?? []).map((contact) => ({
    name: contact.name?.formatted_name ?? [contact.name?.first_name, contact.name?.last_name].filter(Boolean).join(' '),
    phones: (contact.phones ?? []).map((phone) => ({ phone: phone.phone ?? phone.wa_id ?? '', ...(phone.type ? { type: phone.type } : {}), ...(phone.wa_id ? { waId: phone.wa_id } : {}) })),
    ...(contact.emails?.length ? { emails: contact.emails.map((email) => ({ email: email.email ?? '', ...(email.type ? { type: email.type } : {}) })) } : {}),
    ...(contact.org?.company ? { organization: contact.org.company } : {}),
  }));
}

/** A Flow's submitted fields (its `response_json`), without the flow token. */
function flowFields(json: string | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { response: json };
    const { flow_token: _token, ...fields } = parsed as Record<string, unknown>;
    return fields;
  } catch {
    return { response: json };
  }
}

const fieldText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What every message may carry: the ad that brought the customer, the forwarded marks. */
function commonData(message: CloudMessage): MessageData {
  const data: MessageData = {};
  const referral = message.referral;
  if (referral) {
    data.referral = {
      sourceUrl: referral.source_url,
      sourceType: referral.source_type,
      sourceId: referral.source_id,
      headline: referral.headline,
      body: referral.body,
      mediaType: referral.media_type,
      mediaUrl: referral.image_url ?? referral.video_url,
      ctwaClid: referral.ctwa_clid,
    };
  }
  if (message.context?.frequently_forwarded) data.forwarded = 'frequently';
  else if (message.context?.forwarded) data.forwarded = 'forwarded';
  return data;
}

export const UNSUPPORTED_TEXT = 'message type not supported by WhatsApp Cloud API';

/**
 * The ingest fields of a message that needs no download: a readable body for
 * every client and the details in `data`. Null only for reactions, which change
 * the message they react to (see `processWebhookValue`).
 */
export function mapCloudMessage(message: CloudMessage): Pick<InboundMessage, 'body' | 'specialType' | 'data' | 'source'> | null {
  const data = commonData(message);
  const withData = (fields: Pick<InboundMessage, 'body' | 'specialType' | 'source'>, extra: MessageData = {}) => {
    const merged = { ...data, ...extra };
    return { ...fields, ...(Object.keys(merged).length ? { data: merged } : {}) };
  };
  switch (message.type) {
    case 'text':
      return withData({ body: message.text?.body ?? '' });
    case 'location': {
      const location = message.location;
      if (!location) break;
      const label = [location.name, location.address].filter(Boolean).join(' - ');
      const link = `https://maps.google.com/maps?q=${location.latitude},${location.longitude}&z=17`;
      return withData(
        { body: label ? `${link}\n${label}` : link, specialType: 'locationMessage' },
        { location: { latitude: location.latitude, longitude: location.longitude, name: location.name, address: location.address, url: location.url } },
      );
    }
    case 'contacts': {
      const contacts = contactsOf(message);
      return withData({ body: contacts.map(vcardOf).join('\n'), specialType: 'vcard' }, { contacts });
    }
    case 'interactive': {
      const interactive = message.interactive;
      if (interactive?.nfm_reply) {
        const fields = flowFields(interactive.nfm_reply.response_json);
        const lines = Object.entries(fields).map(([key, value]) => `${key}: ${fieldText(value)}`);
        return withData({ body: [interactive.nfm_reply.body, ...lines].filter(Boolean).join('\n') }, { flow: { name: interactive.nfm_reply.name, fields } });
      }
      const button = interactive?.button_reply;
      if (button) return withData({ body: button.title }, { reply: { kind: 'button', id: button.id ?? '', title: button.title } });
      const list = interactive?.list_reply;
      if (list) return withData({ body: list.title }, { reply: { kind: 'list', id: list.id ?? '', title: list.title, ...(list.description ? { description: list.description } : {}) } });
      break;
    }
    case 'button':
      return withData({ body: message.button?.text ?? '' }, { button: { text: message.button?.text ?? '', payload: message.button?.payload } });
    case 'order': {
      const order = message.order;
      const items = (order?.product_items ?? []).map((item) => ({ productId: item.product_retailer_id, quantity: item.quantity, price: item.item_price, currency: item.currency }));
      const summary = { catalogId: order?.catalog_id, text: order?.text, items };
      return withData({ body: orderSummary(summary) }, { order: summary });
    }
    case 'system': {
      const system = message.system;
      const newNumber = system?.new_wa_id ?? (system?.type?.includes('changed_number') ? system.wa_id : undefined);
      return withData(
        { body: system?.body ?? system?.type ?? 'system', source: 'system' },
        { system: { kind: system?.type ?? 'system', text: system?.body ?? '', ...(newNumber ? { newNumber: newNumber.replace(/\D/g, '') } : {}) } },
      );
    }
    case 'reaction':
      return null;
    default:
      break;
  }
  // `unsupported` (131051), and any kind this version does not know: never dropped.
  const error = message.errors?.[0];
  const type = message.unsupported?.type ?? (message.type === 'unsupported' ? undefined : message.type);
  return withData({ body: type ? `${UNSUPPORTED_TEXT} (${type})` : UNSUPPORTED_TEXT }, { unsupported: { type, code: error?.code, title: error?.title ?? error?.message } });
}

export interface CloudInboundDeps {
  services: AppServices;
  provider: CloudApiProvider;
  /** Hands a media message to the retried media job (or handles it now when no jobs run). */
  enqueueMedia(job: CloudMediaJob): Promise<void>;
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

function baseInput(connection: Pick<WhatsappRow, 'companyId' | 'id'>, message: CloudMessage, contactName?: string): Omit<InboundMessage, 'body'> {
  const seconds = Number(message.timestamp);
  return {
    companyId: connection.companyId,
    whatsappId: connection.id,
    externalId: message.id,
    from: message.from.replace(/\D/g, ''),
    contactName,
    quotedExternalId: message.context?.id ?? null,
    timestamp: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : undefined,
  };
}

/**
 * A media message is stored at once, marked pending, so the customer's message is
 * in the chat while its file is fetched (`processMediaMessage` fills it in).
 */
async function ingestPendingMedia(deps: CloudInboundDeps, connection: WhatsappRow, message: CloudMessage & { type: CloudMediaType }, contactName?: string): Promise<void> {
  const media = mediaOf(message);
  const data: MessageData = {
    ...commonData(message),
    media: { status: 'pending' },
    ...(media.voice ? { voice: true } : {}),
    ...(message.type === 'sticker' ? { sticker: true } : {}),
  };
  await ingestMessage(deps.services, { ...baseInput(connection, message, contactName), body: media.caption ?? media.filename ?? '', data });
  await deps.enqueueMedia({ companyId: connection.companyId, whatsappId: connection.id, message, contactName, attempt: 1 });
}

/**
 * Every message and status of one change, in the order Meta listed them. Answers
 * the statuses of sends not stored here (yet: a status can overtake the answer to
 * the send that stored its id), for the caller to try again a little later.
 */
export async function processWebhookValue(deps: CloudInboundDeps, connection: WhatsappRow, value: WebhookValue): Promise<unknown[]> {
  const names = new Map((value.contacts ?? []).map((contact) => [contact.wa_id ?? '', contact.profile?.name ?? '']));
  for (const raw of value.errors ?? []) {
    // A change-level error (e.g. 130429 on the webhook) names no message: the connection keeps it for its admins.
    const error = CloudError.safeParse(raw);
    if (error.success) await noteConnectionProblem(deps.services, connection, cloudErrorCode(error.data.code), error.data);
    deps.logger.warn({ whatsappId: connection.id, error: raw }, 'Cloud API change-level error');
  }
  for (const raw of value.messages ?? []) {
    const parsed = CloudMessage.safeParse(raw);
    if (!parsed.success) {
      deps.logger.warn({ whatsappId: connection.id, issues: parsed.error.issues.slice(0, 3) }, 'webhook message of unknown shape skipped');
      continue;
    }
    const message = parsed.data;
    const contactName = names.get(message.from) || undefined;
    if (isMediaMessage(message)) {
      await ingestPendingMedia(deps, connection, message, contactName);
      continue;
    }
    if (message.type === 'reaction' && message.reaction) {
      const target = { companyId: connection.companyId, whatsappId: connection.id, externalId: message.reaction.message_id };
      const emoji = message.reaction.emoji ?? '';
      if (await applyReaction(deps.services, target, message.from.replace(/\D/g, ''), emoji)) continue;
      // A reaction to a message we do not have (or no longer have) is still shown, as its own line.
      if (!emoji) continue;
      await ingestMessage(deps.services, { ...baseInput(connection, message, contactName), quotedExternalId: null, body: emoji, data: { reaction: { emoji, messageId: message.reaction.message_id } } });
      continue;
    }
    const mapped = mapCloudMessage(message);
    if (!mapped) continue;
    const from = message.from.replace(/\D/g, '');
    await ingestMessage(deps.services, { ...baseInput(connection, message, contactName), ...mapped });
    if (mapped.data?.system?.newNumber) await followNumberChange(deps.services, connection, from, mapped.data.system.newNumber);
  }
  const unmatched: unknown[] = [];
  for (const raw of value.statuses ?? []) {
    const parsed = CloudStatus.safeParse(raw);
    if (!parsed.success) continue;
    const status = parsed.data;
    const ack = ACKS[status.status];
    const ref = { companyId: connection.companyId, whatsappId: connection.id, externalId: status.id };
    let changed = false;
    if (ack) changed = await applyAck(deps.services, ref, ack);
    else if (status.status === 'failed') {
      const error = status.errors?.[0];
      changed = await applySendFailure(deps.services, ref, cloudErrorCode(error?.code), { code: error?.code, title: error?.title ?? error?.message, details: error?.error_data?.details });
    } else continue;
    if (!changed && !(await isKnownSend(deps.services, ref))) unmatched.push(raw);
  }
  return unmatched;
}

/** Meta's `sha256` of a media file (hex or base64, as it has been given). */
function sha256Matches(data: Buffer, expected: string | undefined): boolean {
  if (!expected) return true;
  const digest = createHash('sha256').update(data).digest();
  return expected.toLowerCase() === digest.toString('hex') || expected === digest.toString('base64');
}

export const MEDIA_ATTEMPTS = 6;

/**
 * Fetches a pending media message's file by its id and fills the stored message.
 * Answers 'retry' when another try may succeed; after the last one, or at once
 * for what another try does not change (the file is gone, or its bytes do not
 * match Meta's sha256), the message says the media is unavailable and why.
 */
export async function processMediaMessage(deps: Omit<CloudInboundDeps, 'enqueueMedia'>, connection: WhatsappRow, job: CloudMediaJob): Promise<'done' | 'retry'> {
  const { message } = job;
  if (!isMediaMessage(message)) return 'done';
  const ref = { companyId: connection.companyId, whatsappId: connection.id, externalId: message.id };
  const inner = mediaOf(message);
  if (!inner.id) {
    await settlePendingMedia(deps.services, ref, { reason: 'ERR_MEDIA_MISSING' });
    return 'done';
  }
  const attempt = job.attempt ?? 1;
  let reason: string;
  try {
    const downloaded = await deps.provider.client(connection).downloadMedia(inner.id);
    if (sha256Matches(downloaded.data, inner.sha256)) {
      const mimeType = (downloaded.mimeType || inner.mime_type || 'application/octet-stream').split(';')[0]?.trim() || 'application/octet-stream';
      const extension = mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '').slice(0, 8) || 'bin';
      const fileName = inner.filename || `${message.type}-${inner.id}.${extension}`;
      const saved = await deps.services.media.save({ companyId: connection.companyId }, { data: downloaded.data, fileName, mimeType });
      // The stored file's name is made safe for the disk; the customer's file keeps the name it was sent with.
      const media = { ...saved, name: inner.filename ? stripUnsafeText(inner.filename).slice(0, 255) || saved.name : saved.name };
      if (!(await settlePendingMedia(deps.services, ref, { media }))) await deps.services.media.remove({ companyId: connection.companyId }, media.path).catch(() => undefined);
      return 'done';
    }
    reason = 'ERR_MEDIA_CHECKSUM';
  } catch (error) {
    // Gone (404/410) or refused for good: no retry helps.
    const status = error instanceof GraphApiError ? error.status : 0;
    reason = status === 404 || status === 410 ? 'ERR_MEDIA_EXPIRED' : error instanceof AppError && error.code === 'ERR_PAYLOAD_TOO_LARGE' ? 'ERR_PAYLOAD_TOO_LARGE' : 'ERR_MEDIA_DOWNLOAD';
    if (reason === 'ERR_MEDIA_DOWNLOAD' && attempt < MEDIA_ATTEMPTS) {
      deps.logger.warn({ whatsappId: connection.id, attempt, err: error }, 'Cloud API media download failed; retrying');
      return 'retry';
    }
  }
  await settlePendingMedia(deps.services, ref, { reason });
  return 'done';
}
