import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db/client.js';
import type { ChannelProvider } from '../../modules/connections/channel-provider.js';
import { editOutboxEntry, insertOutboxEntry, markOutboxDeleted, sandboxPhoneBook } from './sandbox.repo.js';

/**
 * The sandbox's convention for a number that is not on WhatsApp: one starting
 * with 999 (no country has that code), so a test or a demo can meet the
 * "not on WhatsApp" answers (and a send the channel refuses) through the real provider.
 */
export const SANDBOX_NOT_ON_WHATSAPP_PREFIX = '999';

/**
 * A simulated customer phone. What the product sends lands in `sandbox_outbox`,
 * where the phone page (and tests) read it; what the "customer" types enters
 * through the same ingest pipeline as every real provider.
 */
export function createSandboxProvider(db: Db): ChannelProvider {
  return {
    kind: 'sandbox',
    idempotentSends: true,
    async send(connection, message) {
      // Like WhatsApp, the sandbox refuses to send to a number that is not on it.
      if (message.to.replace(/\D/g, '').startsWith(SANDBOX_NOT_ON_WHATSAPP_PREFIX)) throw new Error('sandbox: the number is not on WhatsApp');
      // A keyed send has an id derived from its key: sent twice, the second insert is a no-op.
      const externalId = message.idempotencyKey ? `SBX-K-${message.idempotencyKey}` : `SBX-${randomUUID()}`;
      await insertOutboxEntry(db, {
        companyId: connection.companyId,
        whatsappId: connection.id,
        number: message.to,
        externalId,
        body: message.body,
        mediaType: message.media?.mediaType ?? null,
        mediaPath: message.media?.path ?? null,
        mediaName: message.media?.name ?? null,
        quotedExternalId: message.quotedExternalId ?? null,
      });
      // The simulated phone is always online: the message is delivered at once.
      return { externalId, ack: 2 };
    },
    async deleteMessage(connection, _to, externalId) {
      await markOutboxDeleted(db, connection, connection.id, externalId);
    },
    async editMessage(connection, target, body) {
      await editOutboxEntry(db, connection, connection.id, target.externalId, body);
    },
    async react() {
      // The simulated phone shows no reactions: the message's own row keeps the agent's.
    },
    async markRead() {
      // Nothing to tell a simulated phone.
    },
    async checkNumber(_connection, number) {
      const digits = number.replace(/\D/g, '');
      const exists = digits.length >= 8 && digits.length <= 15 && !digits.startsWith(SANDBOX_NOT_ON_WHATSAPP_PREFIX);
      return { exists, number: digits };
    },
    async listContacts(connection) {
      return sandboxPhoneBook(db, connection, connection.id);
    },
  };
}
