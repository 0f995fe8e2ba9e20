import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { readCloudApiSettings } from '../../modules/connections/cloud-api-settings.js';
import type { Platform } from '../../platform/platform.js';
import { stripUnsafeDeep } from '../../platform/text/unsafe-text.js';
import type { CloudApiChannels } from './cloud-api.channel.js';
import { findWebhookConnections, hasVerifyToken } from './cloud-api.repo.js';

/** The connections' sealed app secrets, and the registry's Cloud API jobs. */
export type CloudApiWebhookDeps = Pick<Platform, 'db' | 'secrets' | 'config'> & { channels: CloudApiChannels };

/** Meta's webhook envelope: entries (a WABA each) and their changes. */
export const Envelope = z.object({
  object: z.string().optional(),
  entry: z
    .array(
      z.object({
        id: z.string().optional(),
        changes: z.array(z.object({ field: z.string().optional(), value: z.unknown() })).default([]),
      }),
    )
    .default([]),
});
export type Envelope = z.infer<typeof Envelope>;

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under the app secret>`, compared in constant time. */
function validSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header || !appSecret || !header.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function phoneNumberIdOf(value: unknown): string | null {
  const id = (value as { metadata?: { phone_number_id?: unknown } } | null)?.metadata?.phone_number_id;
  return typeof id === 'string' ? id : null;
}

/** Whether a connection has this verify token (Meta's subscription check). */
export async function isWebhookVerifyToken(deps: Pick<Platform, 'db'>, token: string): Promise<boolean> {
  return hasVerifyToken(deps.db, token);
}

/** Cloud API connections the payload names, by phone number id or WABA id. */
async function candidates(deps: Pick<Platform, 'db'>, envelope: Envelope) {
  const phoneIds = new Set<string>();
  const wabaIds = new Set<string>();
  for (const entry of envelope.entry) {
    if (entry.id) wabaIds.add(entry.id);
    for (const change of entry.changes) {
      const id = phoneNumberIdOf(change.value);
      if (id) phoneIds.add(id);
    }
  }
  return findWebhookConnections(deps.db, [...phoneIds].slice(0, 50), [...wabaIds].slice(0, 50));
}

/**
 * Accepts a delivery only when the raw body is signed with the app secret of a
 * connection the payload names; each of that connection's `messages` changes is
 * then queued as a job. Answers whether it was accepted.
 */
export async function acceptWebhook(deps: CloudApiWebhookDeps, raw: Buffer, signature: string, envelope: Envelope): Promise<boolean> {
  const verified = (await candidates(deps, envelope)).filter((connection) =>
    validSignature(raw, signature, readCloudApiSettings(connection, deps.secrets, deps.config.GRAPH_API_BASE_URL).appSecret),
  );
  if (verified.length === 0) return false;

  const cloud = deps.channels.cloudApi();
  for (const connection of verified) {
    for (const entry of envelope.entry) {
      for (const change of entry.changes) {
        if (change.field !== 'messages' || phoneNumberIdOf(change.value) !== connection.providerConfig.phoneNumberId) continue;
        // The job's JSON is stored (jsonb refuses NUL): the message is kept, without those characters.
        await cloud.jobs.enqueueWebhook(connection, stripUnsafeDeep(change.value));
      }
    }
  }
  return true;
}
