import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { ingestMessage } from '../../inbound/ingest.js';
import type { InboundMessage } from '../../inbound/inbound-message.js';
import { applyAck } from '../../inbound/message-updates.js';
import { messages, type WhatsappRow } from '../../platform/db/schema.js';
import type { CloudApiProvider } from './cloud-api.provider.js';

/** One message of a `messages` webhook (Meta's webhook reference); unknown fields pass through. */
export const CloudMessage = z
  .object({
    from: z.string(),
    id: z.string(),
    timestamp: z.string().optional(),
    type: z.string(),
    context: z.object({ id: z.string().optional() }).passthrough().optional(),
    text: z.object({ body: z.string() }).passthrough().optional(),
    image: z.record(z.string(), z.unknown()).optional(),
    video: z.record(z.string(), z.unknown()).optional(),
    audio: z.record(z.string(), z.unknown()).optional(),
    document: z.record(z.string(), z.unknown()).optional(),
    sticker: z.record(z.string(), z.unknown()).optional(),
    location: z
      .object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() })
      .passthrough()
      .optional(),
    contacts: z
      .array(
        z
          .object({
            name: z.object({ formatted_name: z.string().optional() }).passthrough().optional(),
            phones: z.array(z.object({ phone: z.string().optional(), wa_id: z.string().optional() }).passthrough()).optional(),
          })
          .passthrough(),
      )
      .optional(),
    interactive: z
      .object({
        button_reply: z.object({ title: z.string() }).passthrough().optional(),
        list_reply: z.object({ title: z.string() }).passthrough().optional(),
      })
      .passthrough()
      .optional(),
    button: z.object({ text: z.string() }).passthrough().optional(),
  })
  .passthrough();
export type CloudMessage = z.infer<typeof CloudMessage>;

const CloudStatus = z
  .object({
    id: z.string(),
    status: z.string(),
    recipient_id: z.string().optional(),
    errors: z.array(z.object({ code: z.number().optional(), title: z.string().optional() }).passthrough()).optional(),
  })
  .passthrough();

export const WebhookValue = z
  .object({
    metadata: z.object({ phone_number_id: z.string().optional() }).passthrough().optional(),
    contacts: z.array(z.object({ wa_id: z.string().optional(), profile: z.object({ name: z.string().optional() }).passthrough().optional() }).passthrough()).optional(),
    messages: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
  })
  .passthrough();
export type WebhookValue = z.infer<typeof WebhookValue>;

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
type CloudMediaType = (typeof MEDIA_TYPES)[number];

export function isMediaMessage(message: CloudMessage): message is CloudMessage & { type: CloudMediaType } {
  return (MEDIA_TYPES as readonly string[]).includes(message.type);
}

/** Statuses to our ack scale; `failed` moves nothing (acks never go back), it is logged. */
const ACKS: Record<string, number> = { sent: 1, delivered: 2, read: 3 };

function vcardOf(contact: NonNullable<CloudMessage['contacts']>[number]): string {
  const name = contact.name?.formatted_name ?? '';
  const phones = (contact.phones ?? []).map((phone) => `TEL;type=CELL${phone.wa_id ? `;waid=${phone.wa_id}` : ''}:${phone.phone ?? phone.wa_id ?? ''}`);
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, ...phones, 'END:VCARD'].join('\n');
}

/** The ingest fields of a message that needs no download; null for what is not conversation content. */
export function mapCloudMessage(message: CloudMessage): Pick<InboundMessage, 'body' | 'specialType'> | null {
  switch (message.type) {
    case 'text':
      return { body: message.text?.body ?? '' };
    case 'location': {
      const location = message.location;
      if (!location) return null;
      const label = [location.name, location.address].filter(Boolean).join(' - ');
      const link = `https://maps.google.com/maps?q=${location.latitude},${location.longitude}&z=17`;
      return { body: label ? `${link}\n${label}` : link, specialType: 'locationMessage' };
    }
    case 'contacts':
      return { body: (message.contacts ?? []).map(vcardOf).join('\n'), specialType: 'vcard' };
    case 'interactive':
      return { body: message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title ?? '' };
    case 'button':
      return { body: message.button?.text ?? '' };
    default:
      // Reactions are not shown (same decision as Baileys); unsupported and system messages carry no content.
      return null;
  }
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

/** Every message and status of one change, in the order Meta listed them. */
export async function processWebhookValue(deps: CloudInboundDeps, connection: WhatsappRow, value: WebhookValue): Promise<void> {
  const names = new Map((value.contacts ?? []).map((contact) => [contact.wa_id ?? '', contact.profile?.name ?? '']));
  for (const raw of value.messages ?? []) {
    const parsed = CloudMessage.safeParse(raw);
    if (!parsed.success) {
      deps.logger.warn({ whatsappId: connection.id }, 'webhook message of unknown shape skipped');
      continue;
    }
    const message = parsed.data;
    const contactName = names.get(message.from) || undefined;
    if (isMediaMessage(message)) {
      await deps.enqueueMedia({ companyId: connection.companyId, whatsappId: connection.id, message, contactName });
      continue;
    }
    const mapped = mapCloudMessage(message);
    if (!mapped) continue;
    await ingestMessage(deps.services, { ...baseInput(connection, message, contactName), ...mapped });
  }
  for (const raw of value.statuses ?? []) {
    const parsed = CloudStatus.safeParse(raw);
    if (!parsed.success) continue;
    const status = parsed.data;
    const ack = ACKS[status.status];
    const ref = { companyId: connection.companyId, whatsappId: connection.id, externalId: status.id };
    if (ack) await applyAck(deps.services, ref, ack);
    else if (status.status === 'failed') deps.logger.warn({ whatsappId: connection.id, id: status.id, errors: status.errors }, 'Cloud API message failed');
  }
}

async function alreadyStored(services: AppServices, job: CloudMediaJob): Promise<boolean> {
  const [row] = await services.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.companyId, job.companyId), eq(messages.whatsappId, job.whatsappId), eq(messages.externalId, job.message.id)))
    .limit(1);
  return Boolean(row);
}

/** Downloads a media message by its id and ingests it; a throw makes the job retry. */
export async function processMediaMessage(deps: Omit<CloudInboundDeps, 'enqueueMedia'>, connection: WhatsappRow, job: CloudMediaJob): Promise<void> {
  const { message } = job;
  if (!isMediaMessage(message) || (await alreadyStored(deps.services, job))) return;
  const inner = (message[message.type] ?? {}) as { id?: string; caption?: string; filename?: string; mime_type?: string };
  if (!inner.id) return;
  const downloaded = await deps.provider.client(connection).downloadMedia(inner.id);
  const mimeType = (downloaded.mimeType || inner.mime_type || 'application/octet-stream').split(';')[0]?.trim() || 'application/octet-stream';
  const extension = mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '').slice(0, 8) || 'bin';
  const fileName = inner.filename || `${message.type}-${inner.id}.${extension}`;
  const media = await deps.services.media.save({ companyId: connection.companyId }, { data: downloaded.data, fileName, mimeType });
  await ingestMessage(deps.services, { ...baseInput(connection, message, job.contactName), body: inner.caption ?? '', media });
}
