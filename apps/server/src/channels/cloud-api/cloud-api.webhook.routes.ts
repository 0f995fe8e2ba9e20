import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import { stripUnsafeDeep } from '../../platform/text/unsafe-text.js';
import { CLOUD_API_WEBHOOK_PATH, readCloudApiSettings } from '../../modules/connections/cloud-api-settings.js';

/** Meta's webhook payloads are small; a batch of hundreds of statuses still fits. */
const WEBHOOK_BODY_LIMIT = 2 * 1024 * 1024;

const VerifyQuery = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().max(200).optional(),
  'hub.challenge': z.string().max(200).optional(),
});

const Envelope = z.object({
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
type Envelope = z.infer<typeof Envelope>;

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under the app secret>`, compared in constant time. */
export function validSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header || !appSecret || !header.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function phoneNumberIdOf(value: unknown): string | null {
  const id = (value as { metadata?: { phone_number_id?: unknown } } | null)?.metadata?.phone_number_id;
  return typeof id === 'string' ? id : null;
}

/** Cloud API connections the payload names, by phone number id or WABA id. */
async function candidates(services: AppServices, envelope: Envelope): Promise<WhatsappRow[]> {
  const phoneIds = new Set<string>();
  const wabaIds = new Set<string>();
  for (const entry of envelope.entry) {
    if (entry.id) wabaIds.add(entry.id);
    for (const change of entry.changes) {
      const id = phoneNumberIdOf(change.value);
      if (id) phoneIds.add(id);
    }
  }
  const ids = [...phoneIds].slice(0, 50);
  const wabas = [...wabaIds].slice(0, 50);
  if (ids.length === 0 && wabas.length === 0) return [];
  const phoneKey = sql`(${whatsapps.providerConfig} ->> 'phoneNumberId')`;
  const wabaKey = sql`(${whatsapps.providerConfig} ->> 'wabaId')`;
  const list = (values: string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  return services.db
    .select()
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.provider, 'cloud-api'),
        or(ids.length > 0 ? sql`${phoneKey} in (${list(ids)})` : undefined, wabas.length > 0 ? sql`${wabaKey} in (${list(wabas)})` : undefined),
      ),
    )
    .limit(100);
}

/**
 * Meta's webhook for every Cloud API connection (public: no session).
 * GET answers `hub.challenge` when `hub.verify_token` is a connection's verify
 * token. POST is accepted only when `X-Hub-Signature-256` is the HMAC of the raw
 * body under the app secret of a connection the payload names; each change is
 * then queued for that connection and Meta gets its 200 at once.
 */
export async function registerCloudApiWebhookRoutes(app: FastifyInstance, services: AppServices): Promise<void> {
  app.get(CLOUD_API_WEBHOOK_PATH, async (request, reply) => {
    const query = VerifyQuery.safeParse(request.query);
    const token = query.success ? query.data['hub.verify_token'] : undefined;
    if (!query.success || query.data['hub.mode'] !== 'subscribe' || !token) return reply.status(403).send({ error: 'ERR_NO_PERMISSION' });
    const [match] = await services.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.provider, 'cloud-api'), sql`(${whatsapps.providerConfig} ->> 'verifyToken') = ${token}`))
      .limit(1);
    if (!match) return reply.status(403).send({ error: 'ERR_NO_PERMISSION' });
    return reply.type('text/plain').send(query.data['hub.challenge'] ?? '');
  });

  // The raw bytes are needed for the signature: only this route's scope parses JSON as a buffer.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(CLOUD_API_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : null;
      const signature = request.headers['x-hub-signature-256'];
      if (!raw || typeof signature !== 'string') return reply.status(401).send({ error: 'ERR_INVALID_API_TOKEN' });
      let envelope: Envelope;
      try {
        envelope = Envelope.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        return reply.status(401).send({ error: 'ERR_INVALID_API_TOKEN' });
      }
      const verified = (await candidates(services, envelope)).filter((connection) =>
        validSignature(raw, signature, readCloudApiSettings(connection, services.secrets, services.config.GRAPH_API_BASE_URL).appSecret),
      );
      if (verified.length === 0) return reply.status(401).send({ error: 'ERR_INVALID_API_TOKEN' });

      const cloud = services.channels.cloudApi();
      for (const connection of verified) {
        for (const entry of envelope.entry) {
          for (const change of entry.changes) {
            if (change.field !== 'messages' || phoneNumberIdOf(change.value) !== connection.providerConfig.phoneNumberId) continue;
            // The job's JSON is stored (jsonb refuses NUL): the message is kept, without those characters.
            await cloud.jobs.enqueueWebhook(connection, stripUnsafeDeep(change.value));
          }
        }
      }
      return reply.status(200).send({ received: true });
    });
  });
}
