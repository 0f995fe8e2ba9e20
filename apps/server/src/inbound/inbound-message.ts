import type { MediaPreviewKind, MessageData } from '@atende/shared';
import type { ProviderKind } from '../modules/connections/channel-provider.js';
import type { StoredMedia } from '../platform/storage/media-storage.js';
import { stripUnsafeText } from '../platform/text/unsafe-text.js';

/** Kinds of message beyond plain text and files (spec part 1 §3 Message.mediaType). */
export type SpecialMediaType = 'locationMessage' | 'vcard' | 'contactMessage' | 'call_log';

/**
 * The one shape every provider turns its incoming events into. Providers never
 * write tickets or messages themselves: they call `ingestMessage`.
 */
export interface InboundMessage {
  /** The provider it came through (metrics count messages per channel). */
  channel: ProviderKind;
  companyId: number;
  whatsappId: number;
  /** The channel's id for the message; the same id twice stores one message. */
  externalId?: string | null;
  /** The chat's number: the customer's, or the group's id for group chats. */
  from: string;
  contactName?: string;
  body: string;
  /** Typed on the connected phone itself rather than by the customer. */
  fromMe?: boolean;
  media?: StoredMedia;
  /** The kind of a file the channel is still fetching (the ticket's preview names it meanwhile). */
  mediaKind?: MediaPreviewKind;
  specialType?: SpecialMediaType;
  quotedExternalId?: string | null;
  isGroup?: boolean;
  /** Group chats: who wrote it. */
  senderName?: string;
  timestamp?: Date;
  /** A line the channel itself wrote (the customer changed number): shown as system, never answered by the bot. */
  source?: 'system';
  /** What the channel gave beyond text and file (stored as `data_json`). */
  data?: MessageData;
}

const cleanOptional = <T extends string | null | undefined>(text: T): T => (typeof text === 'string' ? (stripUnsafeText(text) as T) : text);

/** A provider's timestamp PostgreSQL can store (years 0001 to 9999); otherwise the time it arrived. */
function storableTime(timestamp: Date | undefined): Date | undefined {
  if (!timestamp) return undefined;
  const year = timestamp.getUTCFullYear();
  return Number.isFinite(year) && year >= 1 && year <= 9999 ? timestamp : undefined;
}

/** A channel's details with every text cleaned like the body (jsonb refuses NUL too), keys included. */
function cleanData<T>(value: T): T {
  if (typeof value === 'string') return stripUnsafeText(value) as T;
  if (Array.isArray(value)) return value.map(cleanData) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [stripUnsafeText(key), cleanData(inner)])) as T;
  return value;
}

/**
 * The message with NUL and unpaired surrogates removed from every text a
 * provider gave (PostgreSQL refuses NUL) and a timestamp it can store: the
 * customer's message is stored rather than lost (ARCHITECTURE §3.15). Every
 * provider's message passes here on its way to the database.
 */
export function storableInbound(input: InboundMessage): InboundMessage {
  return {
    ...input,
    externalId: cleanOptional(input.externalId),
    from: stripUnsafeText(input.from),
    contactName: cleanOptional(input.contactName),
    body: stripUnsafeText(input.body),
    quotedExternalId: cleanOptional(input.quotedExternalId),
    senderName: cleanOptional(input.senderName),
    timestamp: storableTime(input.timestamp),
    data: input.data ? cleanData(input.data) : undefined,
  };
}
