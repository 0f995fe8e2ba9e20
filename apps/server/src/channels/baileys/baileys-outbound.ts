import type { AnyMessageContent, WAMessage } from 'baileys';
import type { WhatsappRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import type { OutgoingMessage } from '../../modules/connections/channel-provider.js';
import { prepareVoiceNote } from '../voice-note.js';
import { isGroupContact } from '../channels.repo.js';
import { findStoredMessage } from './baileys.repo.js';

/** The WhatsApp address of a number: a group's when the contact is a group. */
export async function jidFor(deps: Pick<Platform, 'db'>, connection: Pick<WhatsappRow, 'companyId'>, number: string): Promise<string> {
  const digits = number.replace(/[^\d-]/g, '');
  return (await isGroupContact(deps.db, connection, digits)) || digits.includes('-') ? `${digits}@g.us` : `${digits}@s.whatsapp.net`;
}

/** The quoted message as Baileys needs it (its key and some content), from what we stored under its WhatsApp id. */
export async function quotedMessage(
  deps: Pick<Platform, 'db'>,
  connection: Pick<WhatsappRow, 'companyId' | 'id'>,
  jid: string,
  externalId: string | null | undefined,
): Promise<WAMessage | undefined> {
  if (!externalId) return undefined;
  const row = await findStoredMessage(deps.db, { companyId: connection.companyId, whatsappId: connection.id }, externalId);
  return { key: { remoteJid: jid, id: externalId, fromMe: row?.fromMe ?? false }, message: { conversation: row?.body ?? '' } };
}

/** Text, or a file with its caption; audio goes as a voice note when it can be converted. */
export async function contentFor(deps: Pick<Platform, 'media'>, message: OutgoingMessage): Promise<AnyMessageContent> {
  const { media } = message;
  if (!media) return { text: message.body };
  const data = await deps.media.read(media.path);
  const caption = message.body || undefined;
  if (message.sticker && media.mimeType === 'image/webp') return { sticker: data };
  switch (media.mediaType) {
    case 'image':
      return { image: data, caption, mimetype: media.mimeType };
    case 'video':
      return { video: data, caption, mimetype: media.mimeType };
    case 'audio': {
      const audio = await prepareVoiceNote(data, media.mimeType);
      return { audio: audio.data, mimetype: audio.mimeType, ptt: audio.voiceNote };
    }
    default:
      return { document: data, mimetype: media.mimeType || 'application/octet-stream', fileName: media.name, caption };
  }
}
