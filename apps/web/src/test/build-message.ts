import type { PresentedMessage } from '@atende/shared';

/**
 * A message as the API presents it, for web tests: Maria's (contact 1) text
 * "m{id}" in ticket 1, at 2026-01-05 10:00 UTC. Overrides replace whole fields.
 */
export function buildMessage(id: number, overrides: Partial<PresentedMessage> = {}): PresentedMessage {
  const createdAt = overrides.createdAt ?? '2026-01-05T10:00:00.000Z';
  return {
    id,
    ticketId: 1,
    contactId: 1,
    userId: null,
    body: `m${id}`,
    fromMe: false,
    source: 'customer',
    ack: 0,
    read: true,
    mediaType: null,
    mediaUrl: null,
    mediaName: null,
    isDeleted: false,
    isEdited: false,
    senderName: null,
    sendStatus: null,
    sendError: null,
    dataJson: null,
    contact: { id: 1, name: 'Maria' },
    quotedMsgId: null,
    quotedMsg: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}
