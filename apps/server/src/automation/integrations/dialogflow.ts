import { createHash } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import type { QueueIntegrationRow } from '../../platform/db/schema.js';
import { outboundPolicy, TRUSTED_OUTBOUND, type OutboundPolicy } from '../../platform/http/outbound.js';
import type { BotReply } from '../bot-effects.js';
import type { PeerOutcome, PeerTurn } from '../peer-turn.js';
import { callPeer, isRecord, joinUrl, PeerError, postJson } from './peer-http.js';

/**
 * Dialogflow ES through its REST API: `POST {base}/v2/projects/{project}/agent/
 * sessions/{session}:detectIntent` with the customer's text (or the WELCOME
 * event when the ticket just reached the bot) in the configured language. The
 * caller authenticates with an OAuth token obtained from the service-account key
 * (JWT bearer grant, RS256). The fulfilment text goes back to the customer; an
 * intent that ends the interaction, or whose name starts with handover/human/
 * atendente, stops the bot.
 */

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  token_uri?: string;
  project_id?: string;
}

export function parseServiceAccount(json: string): ServiceAccountKey {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new PeerError('the Dialogflow key is not valid JSON');
  }
  if (!isRecord(value) || typeof value.client_email !== 'string' || typeof value.private_key !== 'string') {
    throw new PeerError('the Dialogflow key lacks client_email or private_key');
  }
  return {
    client_email: value.client_email,
    private_key: value.private_key,
    token_uri: typeof value.token_uri === 'string' ? value.token_uri : undefined,
    project_id: typeof value.project_id === 'string' ? value.project_id : undefined,
  };
}

// Access tokens are credentials, not bot state: caching them per process is safe.
const tokens = new Map<string, { token: string; expiresAt: number }>();

/** The key's token_uri is the tenant's text: it is called under the tenant policy. */
async function accessToken(key: ServiceAccountKey, timeoutMs: number, outbound: OutboundPolicy): Promise<string> {
  const cacheKey = createHash('sha256').update(`${key.client_email}\n${key.private_key}`).digest('hex');
  const cached = tokens.get(cacheKey);
  if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
  const tokenUri = key.token_uri ?? DEFAULT_TOKEN_URI;
  let assertion: string;
  try {
    const privateKey = await importPKCS8(key.private_key, 'RS256');
    assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(key.client_email)
      .setAudience(tokenUri)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  } catch {
    throw new PeerError('the Dialogflow private key cannot sign');
  }
  const response = await callPeer(tokenUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    timeoutMs,
    outbound,
  });
  const json = response.json;
  if (!isRecord(json) || typeof json.access_token !== 'string') throw new PeerError('no access token from the token endpoint');
  const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : 3600;
  tokens.set(cacheKey, { token: json.access_token, expiresAt: Date.now() + expiresIn * 1000 });
  return json.access_token;
}

export interface DetectedIntent {
  texts: string[];
  intent: string;
  endInteraction: boolean;
}

export async function detectIntent(options: {
  baseUrl: string;
  key: ServiceAccountKey;
  projectId: string;
  sessionId: string;
  language: string;
  query: { text: string } | { event: string };
  timeoutMs: number;
  /** Policy of the tenant's URLs (the key's token endpoint); DIALOGFLOW_BASE_URL is the operator's. */
  outbound: OutboundPolicy;
}): Promise<DetectedIntent> {
  const token = await accessToken(options.key, options.timeoutMs, options.outbound);
  const queryInput =
    'text' in options.query
      ? { text: { text: options.query.text.slice(0, 256), languageCode: options.language } }
      : { event: { name: options.query.event, languageCode: options.language } };
  const path = `v2/projects/${encodeURIComponent(options.projectId)}/agent/sessions/${encodeURIComponent(options.sessionId)}:detectIntent`;
  const response = await postJson(joinUrl(options.baseUrl, path), { queryInput }, {
    headers: { authorization: `Bearer ${token}` },
    timeoutMs: options.timeoutMs,
    outbound: TRUSTED_OUTBOUND,
  });
  const result = isRecord(response.json) && isRecord(response.json.queryResult) ? response.json.queryResult : null;
  if (!result) throw new PeerError('Dialogflow answered without a queryResult');
  const texts: string[] = [];
  if (Array.isArray(result.fulfillmentMessages)) {
    for (const message of result.fulfillmentMessages) {
      if (isRecord(message) && isRecord(message.text) && Array.isArray(message.text.text)) {
        for (const line of message.text.text) if (typeof line === 'string' && line.trim()) texts.push(line);
      }
    }
  }
  if (texts.length === 0 && typeof result.fulfillmentText === 'string' && result.fulfillmentText.trim()) texts.push(result.fulfillmentText);
  const intent = isRecord(result.intent) ? result.intent : {};
  return {
    texts,
    intent: typeof intent.displayName === 'string' ? intent.displayName : '',
    endInteraction: intent.endInteraction === true,
  };
}

function isHandoverIntent(detected: DetectedIntent): boolean {
  return detected.endInteraction || /^(handover|human|humano|atendente|transfer)/i.test(detected.intent);
}

export async function dialogflowTurn(turn: PeerTurn, integration: QueueIntegrationRow): Promise<PeerOutcome> {
  const { services, runtime, at, message } = turn;
  if (!integration.jsonContentSealed) throw new PeerError('the Dialogflow integration has no key');
  const key = parseServiceAccount(services.secrets.open(integration.jsonContentSealed));
  const text = message.body.trim();
  // Dialogflow reads text: a bare attachment is handled as the conversation's opening.
  const query = turn.start || !text ? { event: 'WELCOME' } : { text };
  const detected = await detectIntent({
    baseUrl: services.config.DIALOGFLOW_BASE_URL,
    key,
    projectId: integration.projectName || key.project_id || '',
    sessionId: at.ticket.uuid,
    language: integration.language,
    query,
    timeoutMs: runtime.httpTimeoutMs,
    outbound: outboundPolicy(services.config),
  });
  const replies: BotReply[] = detected.texts.map((body) => ({ body, source: 'bot' }));
  return isHandoverIntent(detected) ? { replies, handover: {} } : { replies };
}
