import type { TenantScope } from '../../platform/http/context.js';
import type { DbOrTx } from '../../platform/db/client.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';
import { recordWebhookEvents, WEBHOOK_MEDIA_PATH_KEY, webhookListens } from '../webhooks/webhook-outbox.js';
import { presentMessage } from './messages.presenter.js';
import { loadMessageDetails } from './messages.repo.js';

/**
 * Media links are signed when a delivery is sent (webhook-sender.ts), not when it is
 * written: a retry a day later still carries a link that works. The presenter gets
 * this stand-in, and the message's file path travels under WEBHOOK_MEDIA_PATH_KEY.
 */
const UNSIGNED: Pick<MediaStorage, 'signedUrl'> = { signedUrl: () => '' };

/**
 * `message.created` / `message.updated` webhook events (issue 34 item 3) of messages
 * written in `tx`, in order with their ticket's other events (`ticket:<id>`), presented
 * as `GET /messages/:ticketId` shows them.
 */
export async function recordMessageWebhookEvents(tx: DbOrTx, scope: TenantScope, event: 'message.created' | 'message.updated', messageIds: readonly number[]): Promise<void> {
  if (messageIds.length === 0 || !(await webhookListens(tx, scope.companyId, event))) return;
  const messages = await loadMessageDetails(tx, scope, [...messageIds]);
  const inputs = messages.map((message) => ({
    companyId: scope.companyId,
    event,
    orderingKey: `ticket:${message.ticketId}`,
    data: () => ({
      ...presentMessage(message, UNSIGNED as MediaStorage),
      mediaUrl: null,
      ...(message.mediaPath && !message.isDeleted ? { [WEBHOOK_MEDIA_PATH_KEY]: message.mediaPath } : {}),
    }),
  }));
  await recordWebhookEvents(tx, inputs);
}
