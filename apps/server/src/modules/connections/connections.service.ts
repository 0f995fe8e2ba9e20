import { randomBytes } from 'node:crypto';
import { DEFAULT_MAX_USE_BOT_QUEUES, type ConnectionCreateBody, type ConnectionUpdateBody } from '@atende/shared';
import { changedFields, recordAudit } from '../../platform/audit/audit-log.js';
import { prompts, queueIntegrations, queues, type WhatsappRow } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { authorize, requireFeature } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { assertKnownVariables } from '../messages/message-variables.js';
import { providerKindOf, type ChannelGateway, type SessionAction } from './channel-provider.js';
import { cloudApiColumns, isCloudApiConfigured, readCloudApiSettings } from './cloud-api-settings.js';
import {
  clearDefault,
  countConnections,
  deleteConnectionRow,
  findConnection,
  findConnectionDetail,
  findSuccessor,
  hasConnection,
  insertConnection,
  listConnections,
  queuesOf,
  replaceConnectionQueues,
  updateConnectionRow,
  withQueues,
  type ConnectionDetail,
  type ConnectionValues,
} from './connections.repo.js';

/**
 * The connections module's ports: the database, the domain events, the box that seals
 * the Cloud API secrets and the channels layer (sessions started, checked, stopped).
 */
export type ConnectionsDeps = Pick<Platform, 'db' | 'events' | 'secrets'> & { channels: ChannelGateway };

type Body = ConnectionCreateBody | ConnectionUpdateBody;

/**
 * A per-connection Graph API address makes the server call that address with the
 * connection's token: only super users may point it elsewhere than the server's
 * GRAPH_API_BASE_URL (a company admin could otherwise reach internal hosts).
 */
function assertGraphBaseUrl(ctx: RequestContext, body: Body, current: WhatsappRow | null): void {
  const wanted = body.cloudApi?.graphApiBaseUrl;
  if (!wanted || ctx.user.super || wanted === current?.providerConfig.graphApiBaseUrl) return;
  throw new AppError('ERR_NO_PERMISSION', undefined, { fields: { 'cloudApi.graphApiBaseUrl': ['Only super users may change the Graph API address'] } });
}

function validation(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', undefined, { message, fields: { [field]: [message] } });
}

/** Every id the dialog sends is looked up inside the company: another company's id is "not found". */
async function assertReferences(
  deps: Pick<ConnectionsDeps, 'db'>,
  ctx: RequestContext,
  body: Body,
  integrationId: number | null | undefined,
  current?: { promptId: number | null; integrationId: number | null },
): Promise<void> {
  const queueIds = [...(body.queueIds ?? []), ...(body.transferQueueId ? [body.transferQueueId] : [])];
  await assertIdsInTenant(deps.db, ctx, queues, queueIds, 'ERR_NO_QUEUE_FOUND');
  // A connection's bot is a plan feature, like a queue's. Clearing it never is, nor
  // saving the dialog again with the bot it had before the plan changed.
  if (body.promptId && body.promptId !== current?.promptId) requireFeature(ctx, 'useOpenAi');
  if (integrationId && integrationId !== current?.integrationId) requireFeature(ctx, 'useIntegrations');
  if (body.promptId) await assertIdsInTenant(deps.db, ctx, prompts, [body.promptId], 'ERR_NOT_FOUND');
  if (integrationId) await assertIdsInTenant(deps.db, ctx, queueIntegrations, [integrationId], 'ERR_NOT_FOUND');
}

/** Spec part 2 §8: a greeting is needed when the connection offers more than one queue. */
function assertGreeting(queueIds: number[], greeting: string): void {
  if (new Set(queueIds).size > 1 && !greeting.trim()) throw new AppError('ERR_WAPP_GREETING_REQUIRED');
}

/**
 * The external API token is made by the server, never chosen: a chosen token could
 * collide with another company's, and refusing it would confirm that token to the
 * caller (issue 16, defect 9). The dialog's field says what to do with it: absent or
 * the current value, no change; '' the external API is off (no token); anything
 * else, a new random token (32 bytes, base64url), shown in the answer.
 */
function nextConnectionToken(requested: string | undefined, current: string | null): string | null | undefined {
  if (requested === undefined) return undefined;
  if (requested === '') return null;
  if (current !== null && requested === current) return undefined;
  return randomBytes(32).toString('base64url');
}

/** The columns every dialog field maps to (absent fields are left out: PUT changes only what it sends). */
function fieldColumns(body: Body, integrationId: number | null | undefined, token: string | null | undefined): Partial<ConnectionValues> {
  const columns: Partial<ConnectionValues> = {};
  const copy = <K extends keyof ConnectionValues>(key: K, value: ConnectionValues[K] | undefined) => {
    if (value !== undefined) columns[key] = value;
  };
  copy('name', body.name);
  copy('greetingMessage', body.greetingMessage);
  copy('complationMessage', body.complationMessage);
  copy('outOfHoursMessage', body.outOfHoursMessage);
  copy('ratingMessage', body.ratingMessage);
  copy('expiresInactiveMessage', body.expiresInactiveMessage);
  copy('pix', body.pix);
  copy('pixMessage', body.pixMessage);
  copy('token', token);
  copy('expiresTicket', body.expiresTicket);
  copy('timeUseBotQueues', body.timeUseBotQueues);
  copy('maxUseBotQueues', body.maxUseBotQueues);
  copy('timeToTransfer', body.timeToTransfer);
  copy('transferQueueId', body.transferQueueId);
  copy('promptId', body.promptId);
  copy('integrationId', integrationId);
  copy('schedules', body.schedules);
  return columns;
}

function integrationOf(body: Body): number | null | undefined {
  return body.integrationId !== undefined ? body.integrationId : body.integration;
}

/** Every user may list the company's connections (ticket screens name them); the presenter decides what each one sees. */
export async function listCompanyConnections(deps: Pick<ConnectionsDeps, 'db'>, ctx: RequestContext): Promise<ConnectionDetail[]> {
  return withQueues(deps.db, ctx, await listConnections(deps.db, ctx));
}

export async function showConnection(deps: Pick<ConnectionsDeps, 'db'>, ctx: RequestContext, id: number): Promise<ConnectionDetail> {
  const connection = await findConnectionDetail(deps.db, ctx, id);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  return connection;
}

async function announce(deps: Pick<ConnectionsDeps, 'db' | 'events'>, ctx: RequestContext, ids: number[]): Promise<void> {
  for (const id of ids) {
    const detail = await findConnectionDetail(deps.db, ctx, id);
    if (detail) deps.events.emit('connection.saved', { companyId: ctx.companyId, connection: detail });
  }
}

/** The connection's texts sent to customers (spec part 2 §2.2): they may use the message variables. */
const CONNECTION_TEXTS = ['greetingMessage', 'complationMessage', 'outOfHoursMessage', 'ratingMessage', 'expiresInactiveMessage'] as const;

function connectionTexts(texts: Partial<Record<(typeof CONNECTION_TEXTS)[number], string | null>>): Record<string, string | null | undefined> {
  return Object.fromEntries(CONNECTION_TEXTS.map((field) => [field, texts[field]]));
}

/** The connection fields the audit log names; the token and the provider's secrets only as changed. */
const CONNECTION_AUDITED = [
  'name',
  'isDefault',
  'token',
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'ratingMessage',
  'expiresInactiveMessage',
  'expiresTicket',
  'timeUseBotQueues',
  'maxUseBotQueues',
  'timeToTransfer',
  'transferQueueId',
  'promptId',
  'integrationId',
  'schedules',
  'providerConfig',
  'providerSecrets',
] as const satisfies readonly (keyof WhatsappRow)[];

export async function createConnection(deps: ConnectionsDeps, ctx: RequestContext, body: ConnectionCreateBody): Promise<ConnectionDetail> {
  authorize(ctx, 'connections-page:addConnection');
  const limit = ctx.company.plan.connections;
  if (limit > 0 && (await countConnections(deps.db, ctx)) >= limit) throw new AppError('ERR_CONNECTION_LIMIT_REACHED');
  const integrationId = integrationOf(body);
  await assertReferences(deps, ctx, body, integrationId);
  assertGreeting(body.queueIds ?? [], body.greetingMessage ?? '');
  assertKnownVariables(connectionTexts(body));
  const kind = providerKindOf(body.provider);
  assertGraphBaseUrl(ctx, body, null);
  let provider: Partial<ConnectionValues> = {};
  if (kind === 'cloud-api') {
    if (!body.cloudApi) throw validation('cloudApi', 'Required');
    provider = cloudApiColumns(body.cloudApi, null, deps.secrets);
    const settings = readCloudApiSettings({ providerConfig: provider.providerConfig ?? {}, providerSecrets: provider.providerSecrets ?? '' }, deps.secrets, '');
    if (!isCloudApiConfigured(settings)) throw validation('cloudApi', 'Phone number id, WABA id, access token, app secret and verify token are required');
  } else if (body.cloudApi) {
    throw validation('cloudApi', 'Only Cloud API connections take these settings');
  }

  const { id, demoted } = await deps.db.transaction(async (tx) => {
    // The first connection is the default: at least one default is always needed.
    const makeDefault = body.isDefault === true || !(await hasConnection(tx, ctx));
    const demotedIds = makeDefault ? await clearDefault(tx, ctx) : [];
    const created = await insertConnection(tx, ctx, {
      maxUseBotQueues: DEFAULT_MAX_USE_BOT_QUEUES,
      ...fieldColumns(body, integrationId, nextConnectionToken(body.token, null)),
      ...provider,
      name: body.name,
      provider: body.provider,
      isDefault: makeDefault,
      // A simulated phone needs no pairing; the others report their state as their session comes up.
      status: kind === 'sandbox' ? 'CONNECTED' : kind === 'baileys' ? 'OPENING' : 'DISCONNECTED',
    });
    if (created === null) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
    await replaceConnectionQueues(tx, ctx, created, body.queueIds);
    await recordAudit(tx, ctx, { action: 'connection.created', entityId: created, changes: { name: body.name, provider: body.provider, isDefault: makeDefault, queueIds: body.queueIds ?? [] } });
    return { id: created, demoted: demotedIds };
  });
  await announce(deps, ctx, [...demoted, id]);
  const created = await findConnection(deps.db, ctx, id);
  if (created) await deps.channels.startSession(created);
  return showConnection(deps, ctx, id);
}

export async function updateConnection(deps: ConnectionsDeps, ctx: RequestContext, id: number, body: ConnectionUpdateBody): Promise<ConnectionDetail> {
  authorize(ctx, 'connections-page:editOrDeleteConnection');
  const current = await findConnection(deps.db, ctx, id);
  if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
  const kind = providerKindOf(current.provider);
  if (body.provider !== undefined && providerKindOf(body.provider) !== kind) throw validation('provider', 'The provider of a connection cannot change');
  const integrationId = integrationOf(body);
  await assertReferences(deps, ctx, body, integrationId, current);
  const queueIds = body.queueIds ?? ((await queuesOf(deps.db, ctx, [id])).get(id) ?? []).map((queue) => queue.id);
  assertGreeting(queueIds, body.greetingMessage ?? current.greetingMessage);
  assertKnownVariables(connectionTexts(body), {}, connectionTexts(current));
  // Unsetting the default would leave none: another connection must be made the default instead.
  if (body.isDefault === false && current.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP');
  assertGraphBaseUrl(ctx, body, current);
  let provider: Partial<ConnectionValues> = {};
  if (body.cloudApi) {
    if (kind !== 'cloud-api') throw validation('cloudApi', 'Only Cloud API connections take these settings');
    provider = cloudApiColumns(body.cloudApi, current, deps.secrets);
  }

  const demoted = await deps.db.transaction(async (tx) => {
    const demotedIds = body.isDefault === true && !current.isDefault ? await clearDefault(tx, ctx, id) : [];
    await updateConnectionRow(tx, ctx, id, {
      ...fieldColumns(body, integrationId, nextConnectionToken(body.token, current.token)),
      ...provider,
      ...(body.isDefault === true ? { isDefault: true } : {}),
    });
    await replaceConnectionQueues(tx, ctx, id, body.queueIds);
    const updated = await findConnection(tx, ctx, id);
    const changes = updated ? changedFields(current, updated, CONNECTION_AUDITED, ['token', 'providerSecrets']) : {};
    if (body.queueIds) changes.queueIds = { to: [...new Set(body.queueIds)].sort((a, b) => a - b) };
    await recordAudit(tx, ctx, { action: 'connection.updated', entityId: id, changes });
    return demotedIds;
  });
  await announce(deps, ctx, [...demoted, id]);
  if (body.cloudApi) {
    const updated = await findConnection(deps.db, ctx, id);
    if (updated) await deps.channels.checkConnection(updated);
  }
  return showConnection(deps, ctx, id);
}

export async function deleteConnection(deps: ConnectionsDeps, ctx: RequestContext, id: number): Promise<void> {
  authorize(ctx, 'connections-page:editOrDeleteConnection');
  const connection = await findConnection(deps.db, ctx, id);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  // A session running here logs the device out of the phone first; elsewhere its node stops it when the lease vanishes.
  await deps.channels.stopLocalSession(id);
  const promoted = await deps.db.transaction(async (tx) => {
    await deleteConnectionRow(tx, ctx, id);
    await recordAudit(tx, ctx, { action: 'connection.deleted', entityId: id, changes: { name: connection.name, provider: connection.provider } });
    if (!connection.isDefault) return null;
    // Another connection takes over as default, so new tickets still have one.
    const next = await findSuccessor(tx, ctx, id);
    if (next) await updateConnectionRow(tx, ctx, next.id, { isDefault: true });
    return next?.id ?? null;
  });
  deps.events.emit('connection.deleted', { companyId: ctx.companyId, whatsappId: id });
  if (promoted) await announce(deps, ctx, [promoted]);
  deps.channels.wake();
}

/**
 * `POST /whatsappsession/:id` retry, `PUT` new QR code (the pairing forgotten,
 * a new one starts), `DELETE` disconnect (logged out of the phone). Answers the
 * connection right after the request; what follows (QR codes, CONNECTED) arrives
 * on `company-{id}-whatsappSession`.
 */
export async function sessionAction(deps: ConnectionsDeps, ctx: RequestContext, id: number, action: SessionAction): Promise<WhatsappRow> {
  authorize(ctx, 'connections-page:actionButtons');
  const connection = await findConnection(deps.db, ctx, id);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  await deps.channels.sessionAction(connection, action);
  return (await findConnection(deps.db, ctx, id)) ?? connection;
}

/**
 * `POST /whatsapp-restart` (whaticket v6's "restart all"): every session of the company
 * restarts, as a retry of each (`POST /whatsappsession/:id`) would; a disconnected one stays so.
 */
export async function restartCompanySessions(deps: ConnectionsDeps, ctx: RequestContext): Promise<number> {
  authorize(ctx, 'connections-page:actionButtons');
  const connections = await listConnections(deps.db, ctx);
  let restarted = 0;
  for (const connection of connections) {
    if (connection.status === 'DISCONNECTED') continue;
    await deps.channels.sessionAction(connection, 'retry');
    restarted += 1;
  }
  return restarted;
}

/** Greeting media also stores the file. */
export type GreetingMediaDeps = ConnectionsDeps & Pick<Platform, 'media'>;

/**
 * `POST /whatsapp/:id/greeting-media` (whaticket v6): a file sent with the connection's greeting
 * (the queue menu, or the only queue's greeting). Who edits connections sets it; a new file replaces the old.
 */
export async function attachGreetingMedia(deps: GreetingMediaDeps, ctx: RequestContext, id: number, readFile: () => Promise<{ data: Buffer; fileName: string; mimeType: string }>): Promise<ConnectionDetail> {
  authorize(ctx, 'connections-page:editOrDeleteConnection');
  const current = await findConnection(deps.db, ctx, id);
  if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
  const stored = await deps.media.save(ctx, await readFile());
  await updateConnectionRow(deps.db, ctx, id, { greetingMediaPath: stored.path, greetingMediaName: stored.name });
  if (current.greetingMediaPath) await deps.media.remove(ctx, current.greetingMediaPath);
  await announce(deps, ctx, [id]);
  return showConnection(deps, ctx, id);
}

export async function removeGreetingMedia(deps: GreetingMediaDeps, ctx: RequestContext, id: number): Promise<ConnectionDetail> {
  authorize(ctx, 'connections-page:editOrDeleteConnection');
  const current = await findConnection(deps.db, ctx, id);
  if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
  await updateConnectionRow(deps.db, ctx, id, { greetingMediaPath: null, greetingMediaName: null });
  if (current.greetingMediaPath) await deps.media.remove(ctx, current.greetingMediaPath);
  await announce(deps, ctx, [id]);
  return showConnection(deps, ctx, id);
}
