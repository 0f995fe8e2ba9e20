import type { MessageData } from '@atende/shared';
import type { OutgoingPayload, WhatsappRow } from '../../platform/db/schema.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';

export type ProviderKind = 'sandbox' | 'baileys' | 'cloud-api';

/** The connection's stored provider name; the spec's default 'beta' is Baileys. */
export function providerKindOf(provider: string): ProviderKind {
  if (provider === 'beta' || provider === 'baileys') return 'baileys';
  if (provider === 'cloud-api' || provider === 'sandbox') return provider;
  throw new Error(`unknown provider ${provider}`);
}

export interface OutgoingMessage {
  /** The customer's number (digits). */
  to: string;
  body: string;
  media?: StoredMedia;
  quotedExternalId?: string | null;
  /**
   * Set by the outbound engine: the same key twice is one message. A provider that
   * honours it says so with `idempotentSends`; the others ignore it.
   */
  idempotencyKey?: string;
  /** A forward (POST /message/forward): the channel marks it forwarded where it can (WhatsApp Web). */
  forwarded?: boolean;
  /** The media is a saved sticker: sent as WhatsApp's sticker when it is a WebP, else as an image. */
  sticker?: boolean;
}

/** The message a reaction or an edit is about, as the channel knows it. */
export interface ChannelMessageRef {
  /** The customer's number (digits), the chat the message is in. */
  to: string;
  externalId: string;
  fromMe: boolean;
}

export interface SentMessage {
  externalId: string;
  /** 1 sent, 2 delivered, 3 read (spec part 1 §9). */
  ack: number;
  /** What the channel said beyond the id (Cloud API `message_status`), kept on the message. */
  data?: MessageData;
}

/**
 * What the product needs from a WhatsApp channel. Each provider turns its
 * incoming events into `InboundMessage`s for the one ingest pipeline and
 * implements these outgoing operations.
 */
export interface ChannelProvider {
  readonly kind: ProviderKind;
  /** A repeated send with the same `idempotencyKey` is not sent again (the engine may re-dispatch after a crash). */
  readonly idempotentSends?: boolean;
  send(connection: WhatsappRow, message: OutgoingMessage): Promise<SentMessage>;
  deleteMessage(connection: WhatsappRow, to: string, externalId: string): Promise<void>;
  /** A new text for one of our sent texts; providers that cannot edit (the Cloud API) leave it out. */
  editMessage?(connection: WhatsappRow, target: ChannelMessageRef, body: string): Promise<void>;
  /** Our account's reaction to a message ('' takes it back); providers without reactions leave it out. */
  react?(connection: WhatsappRow, target: ChannelMessageRef, emoji: string): Promise<void>;
  markRead(connection: WhatsappRow, to: string, externalIds: string[]): Promise<void>;
  checkNumber(connection: WhatsappRow, number: string): Promise<{ exists: boolean; number: string }>;
  /** The connected phone's address book (`POST /contacts/import`); providers that cannot list it leave it out. */
  listContacts?(connection: WhatsappRow): Promise<{ number: string; name: string }[]>;
  /** An approved template (the Cloud API's only way to write first); providers without templates leave it out. */
  sendTemplate?(connection: WhatsappRow, to: string, template: NonNullable<OutgoingPayload['template']>): Promise<SentMessage>;
}

/** What an admin asks of a connection's session (`/whatsappsession/:id`). */
export type SessionAction = 'retry' | 'newQr' | 'disconnect';

/**
 * What the domain modules ask of the channels layer: a connection's provider and
 * its session. Declared here, implemented by the channel registry
 * (channels/channel-registry.ts) and handed to the modules by the composition root.
 */
export interface ChannelGateway {
  providerFor(connection: WhatsappRow): ChannelProvider;
  /** Brings a new or reconfigured connection's session up: QR pairing, a Graph API check, or nothing to do (sandbox). */
  startSession(connection: WhatsappRow): Promise<void>;
  /** Retry, new QR code or disconnect, as the connection's provider does it. */
  sessionAction(connection: WhatsappRow, action: SessionAction): Promise<void>;
  /** Checks a connection whose provider settings changed (the Cloud API's credentials). */
  checkConnection(connection: WhatsappRow): Promise<void>;
  /** Logs out a session this process runs before its connection is deleted. */
  stopLocalSession(whatsappId: number): Promise<void>;
  /** Asks this process's session supervisor, if it runs one, to apply session changes now. */
  wake(): void;
}
