import { readFile } from 'node:fs/promises';
import type { AnyMessageContent, WAMessage } from 'baileys';
import { eq } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { contacts, messages, type WhatsappRow } from '../../platform/db/schema.js';
import type { OutgoingMessage } from '../../modules/connections/channel-provider.js';
import { prepareVoiceNote } from '../voice-note.js';
import { inTenant } from '../../platform/db/tenant.js';

/** The WhatsApp address of a number: a group's when the contact is a group. */
export async function jidFor(services: Pick<AppServices, 'db'>, connection: Pick<WhatsappRow, 'companyId'>, number: string): Promise<string> {
  const digits = number.replace(/[^\d-]/g, '');
  const [contact] = await services.db
    .select({ isGroup: contacts.isGroup })
    .from(contacts)
    .where(inTenant(contacts, connection, eq(contacts.number, digits)))
    .limit(1);
  return contact?.isGroup || digits.includes('-') ? `${digits}@g.us` : `${digits}@s.whatsapp.net`;
}

/** The quoted message as Baileys needs it (its key and some content), from what we stored under its WhatsApp id. */
export async function quotedMessage(
  services: Pick<AppServices, 'db'>,
  connection: Pick<WhatsappRow, 'companyId' | 'id'>,
  jid: string,
  externalId: string | null | undefined,
): Promise<WAMessage | undefined> {
  if (!externalId) return undefined;
  const [row] = await services.db
    .select({ body: messages.body, fromMe: messages.fromMe })
    .from(messages)
    .where(inTenant(messages, connection, eq(messages.whatsappId, connection.id), eq(messages.externalId, externalId)))
    .limit(1);
  return { key: { remoteJid: jid, id: externalId, fromMe: row?.fromMe ?? false }, message: { conversation: row?.body ?? '' } };
}

/** Text, or a file with its caption; audio goes as a voice note when it can be converted. */
export async function contentFor(services: Pick<AppServices, 'media'>, message: OutgoingMessage): Promise<AnyMessageContent> {
  const { media } = message;
  if (!media) return { text: message.body };
  const data = await readFile(services.media.absolutePath(media.path));
  const caption = message.body || undefined;
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
