import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

/** Whose rights changed: some users of a company, or (no userIds) all of its users. */
export interface AccessChange {
  companyId: number;
  userIds?: number[];
  /** Sign-ins (refresh families) that ended: logout, password change, replayed refresh token. */
  endedFamilies?: string[];
  /** Company API keys revoked: every node drops them from its key cache (send `userIds: []` so no session is touched). */
  apiKeyIds?: number[];
}

type AccessChangeHandler = (change: AccessChange) => void | Promise<void>;

export interface AccessChanges {
  /**
   * Tells every node that these users' rights (profile, queues, allTicket,
   * tokenVersion, company status, existence) changed. Resolves once this node's
   * handlers ran and the other nodes were told; never throws (failures are logged).
   */
  changed(change: AccessChange): Promise<void>;
  /** Handlers run in the order they were added (the session cache before the sockets). */
  onChange(handler: AccessChangeHandler): void;
  close(): Promise<void>;
}

export interface AccessChangesOptions {
  /** Set: changes reach the other nodes through Redis pub/sub. Absent: one node, in memory. */
  redisUrl?: string;
  /** Prefix of the Redis channel, so two installs on one Redis never hear each other. */
  prefix: string;
  onError(error: unknown, what: string): void;
}

interface Envelope {
  /** The node that made the change handles it locally and skips its own copy. */
  from: string;
  change: AccessChange;
}

export const accessChannel = (prefix: string) => `${prefix}:access-changed`;

function parseChange(value: unknown): AccessChange | null {
  if (typeof value !== 'object' || value === null) return null;
  const { companyId, userIds, endedFamilies, apiKeyIds } = value as { companyId?: unknown; userIds?: unknown; endedFamilies?: unknown; apiKeyIds?: unknown };
  if (typeof companyId !== 'number' || !Number.isSafeInteger(companyId)) return null;
  if (userIds !== undefined && (!Array.isArray(userIds) || !userIds.every((id) => typeof id === 'number' && Number.isSafeInteger(id)))) return null;
  if (endedFamilies !== undefined && (!Array.isArray(endedFamilies) || !endedFamilies.every((id) => typeof id === 'string'))) return null;
  if (apiKeyIds !== undefined && (!Array.isArray(apiKeyIds) || !apiKeyIds.every((id) => typeof id === 'number' && Number.isSafeInteger(id)))) return null;
  return {
    companyId,
    ...(userIds === undefined ? {} : { userIds: userIds as number[] }),
    ...(endedFamilies === undefined ? {} : { endedFamilies: endedFamilies as string[] }),
    ...(apiKeyIds === undefined ? {} : { apiKeyIds: apiKeyIds as number[] }),
  };
}

/**
 * Rights are live (ARCHITECTURE.md §3 rule 12): a change made on any node is
 * applied by every node to its own session cache and open sockets.
 */
export async function createAccessChanges(options: AccessChangesOptions): Promise<AccessChanges> {
  const handlers: AccessChangeHandler[] = [];
  const nodeId = randomUUID();
  const channel = accessChannel(options.prefix);

  async function handle(change: AccessChange): Promise<void> {
    for (const handler of handlers) {
      try {
        await handler(change);
      } catch (error) {
        options.onError(error, 'access change handler failed');
      }
    }
  }

  let publisher: ReturnType<typeof createClient> | null = null;
  let subscriber: ReturnType<typeof createClient> | null = null;
  if (options.redisUrl) {
    publisher = createClient({ url: options.redisUrl });
    subscriber = publisher.duplicate();
    publisher.on('error', (error: unknown) => options.onError(error, 'redis (access changes) error'));
    subscriber.on('error', (error: unknown) => options.onError(error, 'redis (access changes) error'));
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel, (raw) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(raw) as Envelope;
      } catch (error) {
        options.onError(error, 'unreadable access change');
        return;
      }
      const change = parseChange(envelope.change);
      if (envelope.from === nodeId || !change) return;
      void handle(change);
    });
  }

  return {
    async changed(change) {
      const copy: AccessChange = {
        companyId: change.companyId,
        ...(change.userIds ? { userIds: [...new Set(change.userIds)] } : {}),
        ...(change.endedFamilies?.length ? { endedFamilies: [...new Set(change.endedFamilies)] } : {}),
        ...(change.apiKeyIds?.length ? { apiKeyIds: [...new Set(change.apiKeyIds)] } : {}),
      };
      const told = publisher
        ?.publish(channel, JSON.stringify({ from: nodeId, change: copy } satisfies Envelope))
        .catch((error: unknown) => options.onError(error, 'could not publish an access change'));
      await Promise.all([handle(copy), told]);
    },
    onChange(handler) {
      handlers.push(handler);
    },
    async close() {
      const clients = [subscriber, publisher].filter((client) => client !== null);
      subscriber = null;
      publisher = null;
      await Promise.allSettled(clients.map((client) => client.quit()));
    },
  };
}
