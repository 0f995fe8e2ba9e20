import { randomBytes } from 'node:crypto';
import {
  integrationRequiredFields,
  type IntegrationBody,
  type IntegrationTestSessionBody,
  type IntegrationType,
  type IntegrationUpdateBody,
} from '@atende/shared';
import type { AutomationDeps } from '../automation-runtime.js';
import { detectIntent, parseServiceAccount, type ServiceAccountKey } from './dialogflow.js';
import { PeerError } from './peer-http.js';
import type { QueueIntegrationRow } from '../../platform/db/schema.js';
import { changedFields, recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { checkOutboundUrl, outboundPolicy, OutboundRefusedError } from '../../platform/http/outbound.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import { maskedKey } from '../../modules/prompts/prompts.presenter.js';
import { deleteIntegrationRow, findIntegration, insertIntegration, updateIntegrationRow, type IntegrationValues } from './integrations.repo.js';

/** Integrations are an admin page of plans with integrations (spec part 2 §2.13, §6). */
export function assertMayManageIntegrations(ctx: RequestContext): void {
  requireFeature(ctx, 'useIntegrations');
  requireAdmin(ctx);
}

function invalid(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', undefined, { message: `Invalid ${field}`, fields: { [field]: [message] } });
}

/** A Dialogflow key must be a service-account key the server can sign with. */
function checkServiceAccount(json: string): ServiceAccountKey {
  try {
    return parseServiceAccount(json);
  } catch (error) {
    throw invalid('jsonContent', error instanceof PeerError ? error.message : 'Invalid value');
  }
}

/**
 * A URL the server will call for this tenant must not name an internal address
 * (docs/security.md, outgoing URLs); every call checks again at connect time.
 */
async function checkPeerUrl(services: AutomationDeps, field: string, url: string): Promise<void> {
  if (!url.trim()) return;
  try {
    await checkOutboundUrl(outboundPolicy(services.config), url);
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw invalid(field, 'Invalid URL');
    throw new AppError('ERR_OUTBOUND_URL_REFUSED', undefined, { message: error.message, fields: { [field]: [error.message] } });
  }
}

async function checkServiceAccountUrl(services: AutomationDeps, key: ServiceAccountKey): Promise<void> {
  if (key.token_uri) await checkPeerUrl(services, 'jsonContent', key.token_uri);
}

const SIGNING_SECRET_MIN = 16;
const usesSigningSecret = (type: IntegrationType) => type === 'n8n' || type === 'webhook';

export async function showIntegration(services: AutomationDeps, ctx: RequestContext, id: number): Promise<QueueIntegrationRow> {
  const integration = await findIntegration(services.db, ctx, id);
  if (!integration) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  return integration;
}

/**
 * Spec part 2 §5: for n8n, webhook and typebot the project name is the name. A
 * webhook without a signing secret gets a generated one, answered in full this
 * once (`generatedSigningSecret`) so the receiver can be configured.
 */
export async function createIntegration(
  services: AutomationDeps,
  ctx: RequestContext,
  body: IntegrationBody,
): Promise<{ integration: QueueIntegrationRow; generatedSigningSecret: string | null }> {
  if (body.type === 'dialogflow') await checkServiceAccountUrl(services, checkServiceAccount(body.jsonContent));
  else await checkPeerUrl(services, 'urlN8N', body.urlN8N);
  const generated = usesSigningSecret(body.type) && !body.signingSecret ? randomBytes(24).toString('base64url') : null;
  const signingSecret = body.signingSecret ?? generated;
  const integration = await services.db.transaction(async (tx) => {
    const inserted = await insertIntegration(tx, ctx, {
      type: body.type,
      name: body.name,
      projectName: body.type === 'dialogflow' ? body.projectName : body.name,
      jsonContentSealed: body.type === 'dialogflow' && body.jsonContent ? services.secrets.seal(body.jsonContent) : '',
      language: body.language,
      urlN8N: body.urlN8N,
      typebotSlug: body.typebotSlug,
      typebotExpires: body.typebotExpires,
      typebotDelayMessage: body.typebotDelayMessage,
      typebotKeywordFinish: body.typebotKeywordFinish,
      typebotKeywordRestart: body.typebotKeywordRestart,
      typebotUnknownMessage: body.typebotUnknownMessage,
      typebotRestartMessage: body.typebotRestartMessage,
      signingSecretSealed: signingSecret ? services.secrets.seal(signingSecret) : '',
    });
    if (inserted) await recordAudit(tx, ctx, { action: 'integration.created', entityId: inserted.id, changes: { name: inserted.name, type: inserted.type } });
    return inserted;
  });
  if (!integration) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  services.events.emit('integration.saved', { companyId: ctx.companyId, action: 'create', integration });
  return { integration, generatedSigningSecret: generated };
}

/** The fields the audit log names; the service account and the signing secret only as changed. */
const INTEGRATION_AUDITED = [
  'type',
  'name',
  'projectName',
  'language',
  'urlN8N',
  'typebotSlug',
  'typebotExpires',
  'typebotKeywordFinish',
  'typebotKeywordRestart',
  'jsonContentSealed',
  'signingSecretSealed',
] as const satisfies readonly (keyof QueueIntegrationRow)[];

export async function updateIntegration(services: AutomationDeps, ctx: RequestContext, id: number, body: IntegrationUpdateBody): Promise<QueueIntegrationRow> {
  const current = await showIntegration(services, ctx, id);
  const type = body.type ?? current.type;
  const values: Partial<IntegrationValues> = {};
  for (const key of [
    'type',
    'name',
    'language',
    'urlN8N',
    'typebotSlug',
    'typebotExpires',
    'typebotDelayMessage',
    'typebotKeywordFinish',
    'typebotKeywordRestart',
    'typebotUnknownMessage',
    'typebotRestartMessage',
  ] as const) {
    if (body[key] !== undefined) (values as Record<string, unknown>)[key] = body[key];
  }
  const name = body.name ?? current.name;
  values.projectName = type === 'dialogflow' ? (body.projectName ?? current.projectName) : name;
  // A masked value sent back unchanged keeps the stored secret.
  if (body.jsonContent !== undefined && body.jsonContent !== maskedKey(current.jsonContentSealed, services.secrets)) {
    if (type === 'dialogflow' && body.jsonContent) await checkServiceAccountUrl(services, checkServiceAccount(body.jsonContent));
    values.jsonContentSealed = body.jsonContent ? services.secrets.seal(body.jsonContent) : '';
  }
  if (body.signingSecret !== undefined && body.signingSecret !== maskedKey(current.signingSecretSealed, services.secrets)) {
    if (body.signingSecret.length < SIGNING_SECRET_MIN) throw invalid('signingSecret', 'Too Short!');
    values.signingSecretSealed = services.secrets.seal(body.signingSecret);
  }
  const merged = {
    urlN8N: values.urlN8N ?? current.urlN8N,
    typebotSlug: values.typebotSlug ?? current.typebotSlug,
    projectName: values.projectName,
    jsonContent: values.jsonContentSealed ?? current.jsonContentSealed,
  };
  for (const field of integrationRequiredFields(type)) {
    if (!merged[field].trim()) throw invalid(field, 'Required');
  }
  if (type !== 'dialogflow' && (values.urlN8N !== undefined || type !== current.type)) await checkPeerUrl(services, 'urlN8N', merged.urlN8N);
  await services.db.transaction(async (tx) => {
    await updateIntegrationRow(tx, ctx, id, values);
    const changes = changedFields(current, { ...current, ...values }, INTEGRATION_AUDITED, ['jsonContentSealed', 'signingSecretSealed']);
    await recordAudit(tx, ctx, { action: 'integration.updated', entityId: id, changes });
  });
  const integration = await showIntegration(services, ctx, id);
  services.events.emit('integration.saved', { companyId: ctx.companyId, action: 'update', integration });
  return integration;
}

/** Queues, connections and tickets using it go on without it (foreign keys set null). */
export async function deleteIntegration(services: AutomationDeps, ctx: RequestContext, id: number): Promise<void> {
  const integration = await showIntegration(services, ctx, id);
  await services.db.transaction(async (tx) => {
    await deleteIntegrationRow(tx, ctx, id);
    await recordAudit(tx, ctx, { action: 'integration.deleted', entityId: id, changes: { name: integration.name, type: integration.type } });
  });
  services.events.emit('integration.deleted', { companyId: ctx.companyId, integrationId: id });
}

/**
 * The dialogflow dialog's test: opens a throwaway session with the WELCOME
 * event. Answers what the agent said; any failure is ERR_INTEGRATION_TEST_FAILED
 * with the reason.
 */
export async function testDialogflowSession(services: AutomationDeps, ctx: RequestContext, body: IntegrationTestSessionBody) {
  let json = body.jsonContent;
  if (body.id !== undefined) {
    const stored = await showIntegration(services, ctx, body.id);
    if (!json || json === maskedKey(stored.jsonContentSealed, services.secrets)) json = stored.jsonContentSealed ? services.secrets.open(stored.jsonContentSealed) : '';
  }
  if (!json.trim()) throw invalid('jsonContent', 'Required');
  try {
    const key = parseServiceAccount(json);
    const detected = await detectIntent({
      baseUrl: services.config.DIALOGFLOW_BASE_URL,
      key,
      projectId: body.projectName,
      sessionId: `atende-test-${randomBytes(8).toString('hex')}`,
      language: body.language,
      query: { event: 'WELCOME' },
      timeoutMs: services.automation.httpTimeoutMs,
      outbound: outboundPolicy(services.config),
    });
    return { message: 'ok', intent: detected.intent, reply: detected.texts.join('\n') };
  } catch (error) {
    if (!(error instanceof PeerError)) throw error;
    if (error.refused) throw new AppError('ERR_OUTBOUND_URL_REFUSED', undefined, { message: error.message });
    throw new AppError('ERR_INTEGRATION_TEST_FAILED', undefined, { message: error.message });
  }
}
