import type { MessageData, PresentedMessage } from '@atende/shared';
import type { MessageRow } from '../../platform/db/schema.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';

export interface MessageDetail extends MessageRow {
  contact: { id: number; name: string };
  quoted: Pick<MessageRow, 'id' | 'body' | 'fromMe' | 'mediaType' | 'isDeleted'> & { contactName: string } | null;
}

/** A message as the API presents it, as JSON text built by the database without its media URL, and the media file to sign one for. */
export interface PresentedMessageJson {
  json: string;
  mediaPath: string | null;
}

/** What of a message's data is shown: the keys kept for the server alone (a poll's key and its voters) are not. */
function presentedData(data: MessageData | null | undefined): MessageData | null {
  if (!data) return null;
  const { pollSecret: _secret, pollVotes: _votes, ...shown } = data;
  return shown;
}

export function presentMessage(message: MessageDetail, media: MediaStorage): PresentedMessage {
  return {
    id: message.id,
    ticketId: message.ticketId,
    contactId: message.contactId,
    userId: message.userId,
    body: message.isDeleted ? '' : message.body,
    fromMe: message.fromMe,
    source: message.source,
    ack: message.ack,
    read: message.read,
    // Text is `chat`, whaticket's name for it (its client renders a quoted text only with it).
    mediaType: message.mediaType ?? 'chat',
    mediaUrl: message.mediaPath && !message.isDeleted ? media.signedUrl(message.mediaPath) : null,
    mediaName: message.mediaName,
    isDeleted: message.isDeleted,
    isEdited: message.isEdited,
    senderName: message.senderName,
    /** Outgoing messages: 'pending' until the channel answers, 'sent' or 'failed' (with the error code); null otherwise. */
    sendStatus: message.sendStatus,
    sendError: message.sendError,
    /** What the channel gave beyond text and file (issue 19): reactions, order, referral, ...; null when nothing. */
    dataJson: message.isDeleted ? null : presentedData(message.dataJson),
    contact: message.contact,
    quotedMsgId: message.quotedMsgId,
    quotedMsg: message.quoted
      ? {
          id: message.quoted.id,
          body: message.quoted.isDeleted ? '' : message.quoted.body,
          fromMe: message.quoted.fromMe,
          mediaType: message.quoted.mediaType ?? 'chat',
          isDeleted: message.quoted.isDeleted,
          contact: { name: message.quoted.contactName },
        }
      : null,
    createdAt: message.createdAt.toISOString(),
    updatedAt: message.updatedAt.toISOString(),
  };
}

/** A JSON array of messages presented by the database (`pageConversation`), with their media URLs signed. */
export function presentedMessagesJson(messages: PresentedMessageJson[], media: MediaStorage): string {
  const items = messages.map(({ json, mediaPath }) =>
    mediaPath === null ? json : JSON.stringify({ ...(JSON.parse(json) as PresentedMessage), mediaUrl: media.signedUrl(mediaPath) }),
  );
  return `[${items.join(',')}]`;
}
