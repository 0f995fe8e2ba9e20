import { randomUUID } from 'node:crypto';
import { isErrorCode } from '@atende/shared';
import { createClient } from 'redis';
import { AppError } from '../../platform/http/app-error.js';
import type { ChannelMessageRef, OutgoingMessage, SentMessage } from '../../modules/connections/channel-provider.js';

/** An operation on a Baileys connection, asked of the node whose process holds its session. */
export type RelayCall = { companyId: number; whatsappId: number } & (
  | { op: 'send'; message: OutgoingMessage }
  | { op: 'delete'; to: string; externalId: string }
  | { op: 'edit'; target: ChannelMessageRef; body: string }
  | { op: 'react'; target: ChannelMessageRef; emoji: string }
  | { op: 'markRead'; to: string; externalIds: string[] }
  | { op: 'checkNumber'; number: string }
);

export type RelayResult = SentMessage | { exists: boolean; number: string } | null;

interface RelayRequest {
  id: string;
  replyTo: string;
  call: RelayCall;
}

interface RelayReply {
  id: string;
  result?: RelayResult;
  error?: { code?: string; message: string };
}

export interface BaileysRelay {
  /** Runs the call on node `nodeId`; its errors come back as they were thrown there (AppError codes kept). */
  request(nodeId: string, call: RelayCall): Promise<RelayResult>;
  /** Answers the calls sent to `nodeId` (the session supervisor's node). */
  serve(nodeId: string, handler: (call: RelayCall) => Promise<RelayResult>): Promise<void>;
  close(): Promise<void>;
}

/** How long a node waits for the session holder (a send to WhatsApp included). */
const RELAY_TIMEOUT_MS = 20_000;

const requestChannel = (prefix: string, nodeId: string) => `${prefix}:node:${nodeId}`;

/**
 * A Baileys session lives in one process (the holder of its lease). Any API node
 * may take an agent's send, so a node without the session hands the call to the
 * holder over Redis pub/sub (present whenever there is more than one node) and
 * waits for its answer. Media travel as stored paths (keys): every node reads the same media storage.
 */
export async function connectBaileysRelay(
  url: string,
  onError: (error: unknown) => void,
  options: { prefix?: string; timeoutMs?: number } = {},
): Promise<BaileysRelay> {
  const prefix = options.prefix ?? 'atende:baileys-relay';
  const timeoutMs = options.timeoutMs ?? RELAY_TIMEOUT_MS;
  const commands = createClient({ url });
  const subscriber = commands.duplicate();
  commands.on('error', onError);
  subscriber.on('error', onError);
  await Promise.all([commands.connect(), subscriber.connect()]);

  const replyTo = `${prefix}:reply:${randomUUID()}`;
  const pending = new Map<string, { resolve(result: RelayResult): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  await subscriber.subscribe(replyTo, (raw) => {
    const reply = JSON.parse(raw) as RelayReply;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (!reply.error) waiting.resolve(reply.result ?? null);
    else if (reply.error.code && isErrorCode(reply.error.code)) waiting.reject(new AppError(reply.error.code));
    else waiting.reject(new Error(reply.error.message));
  });

  return {
    async request(nodeId, call) {
      const id = randomUUID();
      const answer = new Promise<RelayResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new AppError('ERR_WAPP_NOT_INITIALIZED'));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
      });
      const request: RelayRequest = { id, replyTo, call };
      const listeners = await commands.publish(requestChannel(prefix, nodeId), JSON.stringify(request));
      if (listeners === 0) {
        // The holder is gone (its lease has not expired yet): nobody will answer.
        const waiting = pending.get(id);
        pending.delete(id);
        if (waiting) clearTimeout(waiting.timer);
        throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      }
      return answer;
    },
    async serve(nodeId, handler) {
      await subscriber.subscribe(requestChannel(prefix, nodeId), (raw) => {
        const request = JSON.parse(raw) as RelayRequest;
        void handler(request.call)
          .then(
            (result): RelayReply => ({ id: request.id, result }),
            (error: unknown): RelayReply => ({
              id: request.id,
              error: { code: error instanceof AppError ? error.code : undefined, message: error instanceof Error ? error.message : String(error) },
            }),
          )
          .then((reply) => commands.publish(request.replyTo, JSON.stringify(reply)))
          .catch(onError);
      });
    },
    async close() {
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new AppError('ERR_WAPP_NOT_INITIALIZED'));
      }
      pending.clear();
      await Promise.allSettled([subscriber.quit(), commands.quit()]);
    },
  };
}
