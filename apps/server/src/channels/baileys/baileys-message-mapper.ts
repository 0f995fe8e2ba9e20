import { extensionForMediaMessage, getContentType, normalizeMessageContent, type proto, type WAMessage } from 'baileys';
import type { MessageData } from '@atende/shared';
import type { SpecialMediaType } from '../../inbound/inbound-message.js';

type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';

/** What one WhatsApp message means for the ticket: its text, the file to download, its special kind, its quote. */
export interface MappedContent {
  body: string;
  media?: { kind: MediaKind; mimeType: string; fileName: string };
  specialType?: SpecialMediaType;
  quotedExternalId: string | null;
  /** What WhatsApp gave beyond text and file (voice note, sticker, forwarded, picked option, place). */
  data?: MessageData;
}

const MEDIA_KINDS: Partial<Record<keyof proto.IMessage, MediaKind>> = {
  imageMessage: 'image',
  videoMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'document',
  stickerMessage: 'sticker',
  ptvMessage: 'video',
};

/** Kinds that are not conversation content: reactions (they change the message they react to), protocol traffic, polls' votes, key distribution. */
const IGNORED_KINDS = new Set<keyof proto.IMessage>([
  'protocolMessage',
  'reactionMessage',
  'senderKeyDistributionMessage',
  'messageContextInfo',
  'keepInChatMessage',
  'pinInChatMessage',
  'encReactionMessage',
  'encEventResponseMessage',
]);

function contextOf(content: proto.IMessage, kind: keyof proto.IMessage): proto.IContextInfo | null {
  const inner = content[kind];
  if (inner && typeof inner === 'object' && 'contextInfo' in inner) return (inner as { contextInfo?: proto.IContextInfo | null }).contextInfo ?? null;
  return null;
}

function mimeBase(mimeType: string | null | undefined, fallback: string): string {
  const base = (mimeType ?? '').split(';')[0]?.trim();
  return base || fallback;
}

const FALLBACK_MIME: Record<MediaKind, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/ogg',
  document: 'application/octet-stream',
  sticker: 'image/webp',
};

function mediaFileName(message: WAMessage, kind: MediaKind, inner: { fileName?: string | null }): string {
  if (kind === 'document' && inner.fileName) return inner.fileName;
  let extension = 'bin';
  try {
    extension = extensionForMediaMessage(message.message ?? {});
  } catch {
    // An unknown mime type keeps the generic extension.
  }
  return `${kind}-${message.key.id ?? Date.now()}.${extension}`;
}

function locationBody(location: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage): string {
  const lat = Number(location.degreesLatitude ?? 0);
  const lng = Number(location.degreesLongitude ?? 0);
  const link = `https://maps.google.com/maps?q=${lat},${lng}&z=17`;
  const label = 'name' in location ? [location.name, location.address].filter(Boolean).join(' - ') : '';
  return label ? `${link}\n${label}` : link;
}

const POLL_KINDS = new Set<keyof proto.IMessage>(['pollCreationMessage', 'pollCreationMessageV2', 'pollCreationMessageV3', 'pollCreationMessageV5']);

/** A Long or number of seconds since the epoch as ISO time; undefined when absent or zero. */
function isoSeconds(seconds: number | { toNumber(): number } | null | undefined): string | undefined {
  const value = typeof seconds === 'number' ? seconds : (seconds?.toNumber() ?? 0);
  return value > 0 ? new Date(value * 1000).toISOString() : undefined;
}

/** A native-flow reply's parameters (JSON text WhatsApp gives); an unreadable text is kept as it came. */
function flowFields(paramsJson: string | null | undefined): Record<string, unknown> {
  if (!paramsJson) return {};
  try {
    const parsed: unknown = JSON.parse(paramsJson);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    return { raw: paramsJson };
  }
}

/** A poll as the conversation shows it, and the key its votes are encrypted with (kept, never shown). */
function pollOf(content: proto.IMessage, kind: keyof proto.IMessage): { body: string; data: MessageData } {
  const poll = (content[kind] ?? {}) as proto.Message.IPollCreationMessage;
  const name = poll.name ?? '';
  const options = (poll.options ?? []).map((option) => option.optionName ?? '').filter(Boolean);
  const secret = content.messageContextInfo?.messageSecret;
  return {
    body: [`📊 ${name}`, ...options.map((option) => `- ${option}`)].join('\n'),
    data: {
      poll: { name, options: options.map((option) => ({ name: option, votes: 0 })), selectableCount: poll.selectableOptionsCount ?? 0, voters: 0 },
      ...(secret?.length ? { pollSecret: Buffer.from(secret).toString('base64') } : {}),
    },
  };
}

/** A live location's position and its live part (`sequence` orders the updates that follow the first). */
function liveLocationOf(message: WAMessage, live: proto.Message.ILiveLocationMessage): MessageData {
  const sentAt = isoSeconds(message.messageTimestamp as number | { toNumber(): number } | null | undefined) ?? new Date().toISOString();
  const sequence = typeof live.sequenceNumber === 'number' ? live.sequenceNumber : (live.sequenceNumber?.toNumber() ?? 0);
  return {
    location: { latitude: Number(live.degreesLatitude ?? 0), longitude: Number(live.degreesLongitude ?? 0) },
    live: {
      sequence,
      updatedAt: sentAt,
      ...(live.caption ? { caption: live.caption } : {}),
      ...(live.accuracyInMeters ? { accuracyMeters: live.accuracyInMeters } : {}),
      ...(live.speedInMps ? { speedMps: live.speedInMps } : {}),
    },
  };
}

/** The text of an edited message's new content. */
export function textOf(content: proto.IMessage | null | undefined): string {
  const normalized = normalizeMessageContent(content);
  if (!normalized) return '';
  return (
    normalized.conversation ??
    normalized.extendedTextMessage?.text ??
    normalized.imageMessage?.caption ??
    normalized.videoMessage?.caption ??
    normalized.documentMessage?.caption ??
    ''
  );
}

/**
 * Reads a message the way a customer meant it; null for what is not
 * conversation content (reactions, revokes and edits, which arrive again as
 * updates, key distribution, stubs).
 */
export function mapContent(message: WAMessage): MappedContent | null {
  const content = normalizeMessageContent(message.message);
  if (!content) return null;
  const kind = getContentType(content);
  if (!kind || IGNORED_KINDS.has(kind)) return null;
  const context = contextOf(content, kind);
  const quotedExternalId = context?.stanzaId ?? null;
  // WhatsApp marks "forwarded many times" from a forwarding score of 5.
  const common: MessageData = context?.isForwarded ? { forwarded: (context.forwardingScore ?? 0) >= 5 ? 'frequently' : 'forwarded' } : {};
  const withData = (mapped: MappedContent, extra: MessageData = {}): MappedContent => {
    const data = { ...common, ...extra };
    return Object.keys(data).length ? { ...mapped, data } : mapped;
  };

  if (POLL_KINDS.has(kind)) {
    const poll = pollOf(content, kind);
    return withData({ body: poll.body, quotedExternalId }, poll.data);
  }

  const mediaKind = MEDIA_KINDS[kind];
  if (mediaKind) {
    const inner = (content[kind] ?? {}) as { mimetype?: string | null; caption?: string | null; fileName?: string | null; ptt?: boolean | null };
    return withData(
      {
        body: inner.caption ?? '',
        media: { kind: mediaKind, mimeType: mimeBase(inner.mimetype, FALLBACK_MIME[mediaKind]), fileName: mediaFileName(message, mediaKind, inner) },
        quotedExternalId,
      },
      { ...(inner.ptt ? { voice: true } : {}), ...(mediaKind === 'sticker' ? { sticker: true } : {}) },
    );
  }

  switch (kind) {
    case 'conversation':
      return withData({ body: content.conversation ?? '', quotedExternalId });
    case 'extendedTextMessage':
      return withData({ body: content.extendedTextMessage?.text ?? '', quotedExternalId });
    case 'locationMessage': {
      const location = content.locationMessage ?? {};
      return withData(
        { body: locationBody(location), specialType: 'locationMessage', quotedExternalId },
        {
          location: {
            latitude: Number(location.degreesLatitude ?? 0),
            longitude: Number(location.degreesLongitude ?? 0),
            ...(location.name ? { name: location.name } : {}),
            ...(location.address ? { address: location.address } : {}),
            ...(location.url ? { url: location.url } : {}),
          },
        },
      );
    }
    case 'liveLocationMessage':
      return withData({ body: locationBody(content.liveLocationMessage ?? {}), specialType: 'locationMessage', quotedExternalId }, liveLocationOf(message, content.liveLocationMessage ?? {}));
    case 'eventMessage': {
      const event = content.eventMessage ?? {};
      const place = [event.location?.name, event.location?.address].filter(Boolean).join(' - ');
      return withData(
        { body: `📅 ${event.name ?? ''}`, quotedExternalId },
        {
          event: {
            name: event.name ?? '',
            ...(event.description ? { description: event.description } : {}),
            ...(place ? { location: place } : {}),
            ...(event.joinLink ? { joinLink: event.joinLink } : {}),
            ...(isoSeconds(event.startTime) ? { startsAt: isoSeconds(event.startTime) } : {}),
            ...(isoSeconds(event.endTime) ? { endsAt: isoSeconds(event.endTime) } : {}),
            ...(event.isCanceled ? { cancelled: true } : {}),
          },
        },
      );
    }
    case 'interactiveResponseMessage': {
      const reply = content.interactiveResponseMessage;
      const flow = reply?.nativeFlowResponseMessage;
      return withData(
        { body: reply?.body?.text || flow?.name || '', quotedExternalId },
        { flow: { ...(flow?.name ? { name: flow.name } : {}), fields: flowFields(flow?.paramsJson) } },
      );
    }
    case 'contactMessage':
      return withData({ body: content.contactMessage?.vcard ?? content.contactMessage?.displayName ?? '', specialType: 'vcard', quotedExternalId });
    case 'contactsArrayMessage': {
      const cards = (content.contactsArrayMessage?.contacts ?? []).map((card) => card.vcard ?? card.displayName ?? '').filter(Boolean);
      return withData({ body: cards.join('\n'), specialType: 'vcard', quotedExternalId });
    }
    case 'buttonsResponseMessage': {
      const reply = content.buttonsResponseMessage;
      const title = reply?.selectedDisplayText ?? reply?.selectedButtonId ?? '';
      return withData({ body: title, quotedExternalId }, { reply: { kind: 'button', id: reply?.selectedButtonId ?? '', title } });
    }
    case 'listResponseMessage': {
      const reply = content.listResponseMessage;
      const title = reply?.title ?? reply?.singleSelectReply?.selectedRowId ?? '';
      return withData(
        { body: title, quotedExternalId },
        { reply: { kind: 'list', id: reply?.singleSelectReply?.selectedRowId ?? '', title, ...(reply?.description ? { description: reply.description } : {}) } },
      );
    }
    case 'templateButtonReplyMessage': {
      const reply = content.templateButtonReplyMessage;
      return withData({ body: reply?.selectedDisplayText ?? '', quotedExternalId }, { button: { text: reply?.selectedDisplayText ?? '', ...(reply?.selectedId ? { payload: reply.selectedId } : {}) } });
    }
    default: {
      // Something newer than this mapping: keep whatever text it carries rather than lose the message.
      const text = textOf(content);
      return text ? withData({ body: text, quotedExternalId }) : null;
    }
  }
}
