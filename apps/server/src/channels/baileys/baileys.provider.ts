import { jidDecode, type WASocket } from 'baileys';
import type { AppServices } from '../../app.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { ChannelProvider } from '../channel-provider.js';
import { contentFor, jidFor, quotedMessage } from './baileys-outbound.js';
import type { BaileysSessionHub } from './baileys-session.js';

/**
 * Sends through the connection's open session in this process. The session runs
 * on the node holding its lease; a request reaching another node answers
 * ERR_WAPP_NOT_INITIALIZED (see docs/operations.md: run `api` and `channels`
 * together).
 */
export function createBaileysProvider(services: AppServices, hub: BaileysSessionHub): ChannelProvider {
  function socketOf(connection: WhatsappRow): WASocket {
    const socket = hub.get(connection.id)?.openSocket();
    if (!socket) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return socket;
  }

  return {
    kind: 'baileys',
    async send(connection, message) {
      const socket = socketOf(connection);
      const jid = await jidFor(services, connection, message.to);
      const content = await contentFor(services, message);
      const quoted = await quotedMessage(services, connection, jid, message.quotedExternalId);
      const sent = await socket.sendMessage(jid, content, quoted ? { quoted } : {});
      if (!sent?.key.id) throw new AppError('ERR_SENDING_WAPP_MSG');
      return { externalId: sent.key.id, ack: 1 };
    },
    async deleteMessage(connection, to, externalId) {
      const socket = socketOf(connection);
      const jid = await jidFor(services, connection, to);
      await socket.sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: externalId } });
    },
    async markRead(connection, to, externalIds) {
      if (externalIds.length === 0) return;
      const socket = socketOf(connection);
      const jid = await jidFor(services, connection, to);
      await socket.readMessages(externalIds.map((id) => ({ remoteJid: jid, id, fromMe: false })));
    },
    async checkNumber(connection, number) {
      const socket = socketOf(connection);
      const digits = number.replace(/\D/g, '');
      let results: { jid: string; exists: boolean }[] | undefined;
      try {
        results = await socket.onWhatsApp(digits);
      } catch {
        throw new AppError('ERR_WAPP_CHECK_CONTACT');
      }
      const found = results?.find((result) => result.exists);
      return { exists: Boolean(found), number: jidDecode(found?.jid)?.user ?? digits };
    },
  };
}
