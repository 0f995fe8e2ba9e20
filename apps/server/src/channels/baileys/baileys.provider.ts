import { jidDecode, type WASocket } from 'baileys';
import type { WhatsappRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { AppError } from '../../platform/http/app-error.js';
import { findConnection } from '../../modules/connections/connections.repo.js';
import type { ChannelProvider, SentMessage } from '../../modules/connections/channel-provider.js';
import { leaseHolder } from '../channel-leases.repo.js';
import { contentFor, jidFor, quotedMessage } from './baileys-outbound.js';
import type { BaileysRelay, RelayCall, RelayResult } from './baileys-relay.js';
import type { BaileysSessionHub } from './baileys-session.js';

/** Reading the stored contact and quoted message, and the outgoing media files. */
export type BaileysProviderDeps = Pick<Platform, 'db' | 'media'>;

/**
 * Sends through the connection's open session. The session runs in the process
 * holding its lease; on any other node the call goes to that process over the
 * relay (Redis, present whenever there is more than one node) and its answer or
 * error comes back. Without a relay or a live holder: ERR_WAPP_NOT_INITIALIZED.
 */
export function createBaileysProvider(deps: BaileysProviderDeps, hub: BaileysSessionHub, relay: () => BaileysRelay | null): BaileysLocalProvider {
  const local = createLocalOperations(deps, hub);

  async function run(connection: WhatsappRow, call: RelayCall): Promise<RelayResult> {
    if (hub.get(connection.id)?.openSocket()) return local.run(connection, call);
    const target = relay();
    const holder = target ? await leaseHolder(deps.db, connection.id) : null;
    if (!target || !holder) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return target.request(holder, call);
  }
  const ref = (connection: WhatsappRow) => ({ companyId: connection.companyId, whatsappId: connection.id });

  return {
    kind: 'baileys',
    serveRelayCall: (call) => local.serve(call),
    async send(connection, message) {
      return (await run(connection, { ...ref(connection), op: 'send', message })) as SentMessage;
    },
    async deleteMessage(connection, to, externalId) {
      await run(connection, { ...ref(connection), op: 'delete', to, externalId });
    },
    async editMessage(connection, target, body) {
      await run(connection, { ...ref(connection), op: 'edit', target, body });
    },
    async react(connection, target, emoji) {
      await run(connection, { ...ref(connection), op: 'react', target, emoji });
    },
    async markRead(connection, to, externalIds) {
      if (externalIds.length === 0) return;
      await run(connection, { ...ref(connection), op: 'markRead', to, externalIds });
    },
    async checkNumber(connection, number) {
      return (await run(connection, { ...ref(connection), op: 'checkNumber', number })) as { exists: boolean; number: string };
    },
  };
}

export interface BaileysLocalProvider extends ChannelProvider {
  /** A call relayed from another node: run here, on this process's session only. */
  serveRelayCall(call: RelayCall): Promise<RelayResult>;
}

/** The operations on a session open in this process. */
function createLocalOperations(deps: BaileysProviderDeps, hub: BaileysSessionHub) {
  function socketOf(whatsappId: number): WASocket {
    const socket = hub.get(whatsappId)?.openSocket();
    if (!socket) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return socket;
  }

  async function run(connection: Pick<WhatsappRow, 'id' | 'companyId'>, call: RelayCall): Promise<RelayResult> {
    const socket = socketOf(connection.id);
    switch (call.op) {
      case 'send': {
        const jid = await jidFor(deps, connection, call.message.to);
        const content = await contentFor(deps, call.message);
        const quoted = await quotedMessage(deps, connection, jid, call.message.quotedExternalId);
        // A forward carries WhatsApp's "Forwarded" mark.
        const marked = call.message.forwarded ? ({ ...content, contextInfo: { isForwarded: true, forwardingScore: 1 } } as typeof content) : content;
        const sent = await socket.sendMessage(jid, marked, quoted ? { quoted } : {});
        if (!sent?.key.id) throw new AppError('ERR_SENDING_WAPP_MSG');
        return { externalId: sent.key.id, ack: 1 };
      }
      case 'delete': {
        const jid = await jidFor(deps, connection, call.to);
        await socket.sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: call.externalId } });
        return null;
      }
      case 'edit': {
        // WhatsApp Web's edit: a protocol message naming our message's key, with the new text.
        const jid = await jidFor(deps, connection, call.target.to);
        await socket.sendMessage(jid, { text: call.body, edit: { remoteJid: jid, fromMe: true, id: call.target.externalId } });
        return null;
      }
      case 'react': {
        const jid = await jidFor(deps, connection, call.target.to);
        await socket.sendMessage(jid, { react: { text: call.emoji, key: { remoteJid: jid, fromMe: call.target.fromMe, id: call.target.externalId } } });
        return null;
      }
      case 'markRead': {
        const jid = await jidFor(deps, connection, call.to);
        await socket.readMessages(call.externalIds.map((id) => ({ remoteJid: jid, id, fromMe: false })));
        return null;
      }
      case 'checkNumber': {
        const digits = call.number.replace(/\D/g, '');
        let results: { jid: string; exists: boolean }[] | undefined;
        try {
          results = await socket.onWhatsApp(digits);
        } catch {
          throw new AppError('ERR_WAPP_CHECK_CONTACT');
        }
        const found = results?.find((result) => result.exists);
        return { exists: Boolean(found), number: jidDecode(found?.jid)?.user ?? digits };
      }
    }
  }

  return {
    run,
    /** The connection is named by the caller's company and id: it is only used when it exists in that company. */
    async serve(call: RelayCall): Promise<RelayResult> {
      const connection = await findConnection(deps.db, { companyId: call.companyId }, call.whatsappId);
      if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
      return run(connection, call);
    },
  };
}
