import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { importSPKI, jwtVerify } from 'jose';
import { startFakeHttp, type FakeHttp, type FakeReply } from './fake-http.js';

/**
 * Dialogflow ES as its REST reference describes it, with Google's OAuth token
 * endpoint beside it: `POST /token` takes the JWT-bearer grant signed with the
 * service account's key and answers an access token; `POST
 * /v2/projects/{project}/agent/sessions/{session}:detectIntent` needs that token
 * and answers a `queryResult` (fulfillmentText, fulfillmentMessages, intent).
 * Intents are the test's.
 */
export interface DetectedByFake {
  fulfillmentText: string;
  intent: string;
  endInteraction?: boolean;
}

export interface FakeDialogflow extends FakeHttp {
  projectId: string;
  /** A service-account key whose token_uri points here. */
  serviceAccountJson(): string;
  failNext(reply: FakeReply, times?: number): void;
  queries: { session: string; text?: string; event?: string; languageCode?: string }[];
}

export async function startFakeDialogflow(
  detect: (query: { text?: string; event?: string; languageCode?: string }) => DetectedByFake,
  projectId = 'atende-test-project',
): Promise<FakeDialogflow> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const clientEmail = `bot@${projectId}.iam.gserviceaccount.com`;
  const tokens = new Set<string>();
  const failures: FakeReply[] = [];
  const queries: FakeDialogflow['queries'] = [];
  let url = '';

  const server = await startFakeHttp(async (request) => {
    const failure = failures.shift();
    if (failure) return failure;
    if (request.method === 'POST' && request.path === '/token') {
      const form = new URLSearchParams(request.body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400, json: { error: 'unsupported_grant_type' } };
      try {
        const { payload } = await jwtVerify(form.get('assertion') ?? '', await importSPKI(publicPem, 'RS256'), { issuer: clientEmail, audience: `${url}/token` });
        if (typeof payload.scope !== 'string') throw new Error('no scope');
      } catch {
        return { status: 400, json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
      }
      const token = `ya29.${randomUUID()}`;
      tokens.add(token);
      return { json: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
    }
    const match = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(request.path);
    if (request.method === 'POST' && match) {
      const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(token)) return { status: 401, json: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
      if (decodeURIComponent(match[1] ?? '') !== projectId) return { status: 403, json: { error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } } };
      const body = (request.json ?? {}) as { queryInput?: { text?: { text?: string; languageCode?: string }; event?: { name?: string; languageCode?: string } } };
      const query = {
        text: body.queryInput?.text?.text,
        event: body.queryInput?.event?.name,
        languageCode: body.queryInput?.text?.languageCode ?? body.queryInput?.event?.languageCode,
      };
      queries.push({ session: decodeURIComponent(match[2] ?? ''), ...query });
      const result = detect(query);
      return {
        json: {
          responseId: randomUUID(),
          queryResult: {
            queryText: query.text ?? '',
            languageCode: query.languageCode,
            fulfillmentText: result.fulfillmentText,
            fulfillmentMessages: [{ text: { text: [result.fulfillmentText] } }],
            intent: { name: `projects/${projectId}/agent/intents/${randomUUID()}`, displayName: result.intent, endInteraction: result.endInteraction ?? false },
            intentDetectionConfidence: 0.9,
          },
        },
      };
    }
    return { status: 404, json: { error: { code: 404, message: 'Not found' } } };
  });
  url = server.url;
  return {
    ...server,
    projectId,
    queries,
    failNext(reply, times = 1) {
      for (let i = 0; i < times; i++) failures.push(reply);
    },
    serviceAccountJson: () =>
      JSON.stringify({
        type: 'service_account',
        project_id: projectId,
        private_key_id: randomUUID(),
        private_key: privatePem,
        client_email: clientEmail,
        token_uri: `${url}/token`,
      }),
  };
}
