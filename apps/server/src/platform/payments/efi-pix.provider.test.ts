import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPixBrCode, parseBrCode } from './brcode.js';
import { createEfiPixProvider, PaymentProviderError, type EfiPixProviderOptions } from './efi-pix.provider.js';
import { registerFakePsp, type FakePsp } from './fake-psp.js';
import type { PaymentProvider } from './payment-provider.js';

const CLIENT_ID = 'Client_Id_test';
const CLIENT_SECRET = 'Client_Secret_test';
const PIX_KEY = 'cobranca@example.com';

let app: FastifyInstance;
let origin: string;
let psp: FakePsp;
/** Token requests seen by the server, by path. */
const tokenCalls = new Map<string, number>();
/** Bodies the webhook receiver got at /hooks/pix. */
const webhookBodies: unknown[] = [];
const warnings: unknown[][] = [];

const newTxid = (): string => randomBytes(16).toString('hex');
const tokenCallsAt = (prefix: string): number => tokenCalls.get(`${prefix}/oauth/token`) ?? 0;

function provider(overrides: Partial<EfiPixProviderOptions> = {}): PaymentProvider {
  return createEfiPixProvider({ baseUrl: `${origin}/fake-psp`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, kind: 'fake', ...overrides });
}

async function pay(body: { pixCopiaECola: string; amount?: string }): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/fake-psp/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function rejection(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof PaymentProviderError)) throw new Error(`expected a PaymentProviderError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  app = Fastify();
  app.addHook('onRequest', async (request) => {
    if (request.url.endsWith('/oauth/token')) tokenCalls.set(request.url, (tokenCalls.get(request.url) ?? 0) + 1);
  });
  const common = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, merchantName: 'Atende Cobranças Ltda', merchantCity: 'São Paulo', logger: { warn: (...args: unknown[]) => warnings.push(args) } };
  psp = await registerFakePsp(app, { prefix: '/fake-psp', ...common });
  await registerFakePsp(app, { prefix: '/short-tokens', tokenTtlSeconds: 2, ...common });

  // Our side of the webhook: Efí appends '/pix' to the registered URL.
  app.post('/hooks/pix', async (request) => {
    webhookBodies.push(request.body);
    return { ok: true };
  });
  // A PSP that takes longer than the provider's deadline.
  app.post('/slow/oauth/token', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { access_token: 'late', expires_in: 3600 };
  });
  // A PSP whose charges lack pixCopiaECola: the BR Code comes from the location.
  app.post('/no-copy-paste/oauth/token', async () => ({ access_token: 'plain', expires_in: 3600 }));
  app.get<{ Params: { txid: string } }>('/no-copy-paste/v2/cob/:txid', async (request) => ({
    calendario: { criacao: '2024-05-01T12:00:00.000Z', expiracao: 3600 },
    txid: request.params.txid,
    status: 'ATIVA',
    valor: { original: '0.29' },
    loc: { id: 7, location: 'psp.example.com/v2/loc/7', tipoCob: 'cob' },
    chave: PIX_KEY,
  }));
  app.get('/no-copy-paste/v2/loc/7/qrcode', async () => ({ qrcode: 'CODE-FROM-LOC', imagemQrcode: 'data:image/png;base64,' }));
  // A PSP whose answers do not have the expected shape.
  app.post('/bad-answer/oauth/token', async () => ({ access_token: 'no-expiry' }));
  app.post('/bad-amount/oauth/token', async () => ({ access_token: 'ok', expires_in: 3600 }));
  app.get<{ Params: { txid: string } }>('/bad-amount/v2/cob/:txid', async (request) => ({
    calendario: { criacao: '2024-05-01T12:00:00.000Z', expiracao: 3600 },
    txid: request.params.txid,
    status: 'ATIVA',
    valor: { original: '10.5' },
    pixCopiaECola: 'X',
  }));

  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
});

describe('Efí Pix provider against the fake PSP', () => {
  it('creates a charge, reads it, sees it paid through POST /pay, and the webhook is delivered', async () => {
    const pix = provider();
    await pix.registerWebhook(`${origin}/hooks`);
    const txid = newTxid();

    const created = await pix.createPixCharge({ txid, amountCents: 1050, expiresInSeconds: 3600, description: 'Fatura 2024-05' });
    expect(created).toMatchObject({ txid, status: 'ATIVA', amountCents: 1050, paidCents: 0, expiresInSeconds: 3600 });
    expect(created.createdAt).toBeInstanceOf(Date);
    const code = parseBrCode(created.copyPaste);
    if (!code.ok) throw new Error(code.error);
    expect(code.url).toMatch(/^127\.0\.0\.1:\d+\/fake-psp\/v2\/loc\/\d+$/);
    expect(code.txid).toBe('***');
    expect(code.singleUse).toBe(true);
    expect(code.merchantName).toBe('ATENDE COBRANCAS LTDA');
    expect(code.merchantCity).toBe('SAO PAULO');

    expect(await pix.getPixCharge(txid)).toEqual(created);

    const paid = await pay({ pixCopiaECola: created.copyPaste });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'CONCLUIDA', txid, webhookStatus: 200 });

    const after = await pix.getPixCharge(txid);
    expect(after).toMatchObject({ txid, status: 'CONCLUIDA', amountCents: 1050, paidCents: 1050, copyPaste: created.copyPaste });

    const notification = webhookBodies.find((body) => JSON.stringify(body).includes(txid)) as { pix: Record<string, unknown>[] };
    expect(notification.pix).toHaveLength(1);
    expect(notification.pix[0]).toMatchObject({ txid, chave: PIX_KEY, valor: '10.50', endToEndId: paid.body.endToEndId });
    expect(notification.pix[0]?.endToEndId).toMatch(/^E[0-9A-Z]{31}$/);
    expect(typeof notification.pix[0]?.horario).toBe('string');

    // A paid charge cannot be paid again.
    expect((await pay({ pixCopiaECola: created.copyPaste })).status).toBe(409);
  });

  it('reports the amount actually paid when the payer pays a different one', async () => {
    const pix = provider();
    const txid = newTxid();
    const created = await pix.createPixCharge({ txid, amountCents: 9990, expiresInSeconds: 600, description: '' });
    const paid = await pay({ pixCopiaECola: created.copyPaste, amount: '5.00' });
    expect(paid.status).toBe(200);
    expect(await pix.getPixCharge(txid)).toMatchObject({ status: 'CONCLUIDA', amountCents: 9990, paidCents: 500 });
  });

  it('subtracts refunds from the amount paid, and the PSP refuses refunding more than was paid', async () => {
    const pix = provider();
    const txid = newTxid();
    const created = await pix.createPixCharge({ txid, amountCents: 9990, expiresInSeconds: 600, description: '' });
    const { endToEndId } = (await pay({ pixCopiaECola: created.copyPaste })).body as { endToEndId: string };
    const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');
    const token = ((await (await fetch(`${origin}/fake-psp/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials' }) })).json()) as { access_token: string }).access_token;
    const refund = (id: string, valor: string) =>
      fetch(`${origin}/fake-psp/v2/pix/${endToEndId}/devolucao/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ valor }) });
    expect((await refund('R1', '10.00')).status).toBe(201);
    expect(await pix.getPixCharge(txid)).toMatchObject({ status: 'CONCLUIDA', amountCents: 9990, paidCents: 8990 });
    expect((await refund('R2', '90.00')).status).toBe(400);
    expect((await refund('R3', '89.90')).status).toBe(201);
    expect(await pix.getPixCharge(txid)).toMatchObject({ paidCents: 0 });
  });

  it('answers null for a txid the PSP does not know', async () => {
    expect(await provider().getPixCharge(newTxid())).toBeNull();
  });

  it('caches the access token across calls', async () => {
    const pix = provider();
    const before = tokenCallsAt('/fake-psp');
    const txid = newTxid();
    await pix.createPixCharge({ txid, amountCents: 100, expiresInSeconds: 60, description: 'cache' });
    await pix.getPixCharge(txid);
    await Promise.all([pix.getPixCharge(txid), pix.getPixCharge(newTxid()), pix.registerWebhook(`${origin}/hooks`)]);
    expect(tokenCallsAt('/fake-psp') - before).toBe(1);
  });

  it('fetches one token for concurrent first calls', async () => {
    const pix = provider();
    const before = tokenCallsAt('/fake-psp');
    await Promise.all([pix.getPixCharge(newTxid()), pix.getPixCharge(newTxid()), pix.getPixCharge(newTxid())]);
    expect(tokenCallsAt('/fake-psp') - before).toBe(1);
  });

  it('fetches a new token before the cached one expires', async () => {
    // expires_in 2 s: the token is kept for half of it.
    const pix = provider({ baseUrl: `${origin}/short-tokens` });
    const before = tokenCallsAt('/short-tokens');
    await pix.getPixCharge(newTxid());
    await pix.getPixCharge(newTxid());
    expect(tokenCallsAt('/short-tokens') - before).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await pix.getPixCharge(newTxid());
    expect(tokenCallsAt('/short-tokens') - before).toBe(2);
  });

  it('fetches a new token once and retries when the PSP answers 401', async () => {
    const pix = provider();
    const txid = newTxid();
    await pix.createPixCharge({ txid, amountCents: 250, expiresInSeconds: 60, description: 'retry' });
    const before = tokenCallsAt('/fake-psp');
    psp.revokeTokens();
    expect(await pix.getPixCharge(txid)).toMatchObject({ txid, amountCents: 250 });
    expect(tokenCallsAt('/fake-psp') - before).toBe(1);
    // The new token is cached again.
    await pix.getPixCharge(txid);
    expect(tokenCallsAt('/fake-psp') - before).toBe(1);
  });

  it('throws PaymentProviderError 401 for invalid credentials', async () => {
    const error = await rejection(provider({ clientSecret: 'wrong' }).getPixCharge(newTxid()));
    expect(error.status).toBe(401);
    expect(error.nome).toBe('invalid_client');
    expect(error.message).toMatch(/401/);
  });

  it("throws PaymentProviderError with the PSP's nome and mensagem when it refuses a request", async () => {
    const error = await rejection(provider({ pixKey: '' }).createPixCharge({ txid: newTxid(), amountCents: 100, expiresInSeconds: 60, description: 'x' }));
    expect(error.status).toBe(400);
    expect(error.nome).toBe('json_invalido');
    expect(error.mensagem).toMatch(/chave/);
  });

  it('returns the existing charge when a creation is repeated with the same amount, and refuses another amount', async () => {
    const pix = provider();
    const txid = newTxid();
    const first = await pix.createPixCharge({ txid, amountCents: 700, expiresInSeconds: 60, description: 'once' });
    expect(await pix.createPixCharge({ txid, amountCents: 700, expiresInSeconds: 60, description: 'once' })).toEqual(first);
    const error = await rejection(pix.createPixCharge({ txid, amountCents: 701, expiresInSeconds: 60, description: 'once' }));
    expect(error.status).toBe(400);
    expect(error.nome).toBe('txid_duplicado');
  });

  it('refuses invalid input before calling the PSP', async () => {
    const pix = provider();
    await expect(pix.createPixCharge({ txid: 'short', amountCents: 100, expiresInSeconds: 60, description: '' })).rejects.toThrow(RangeError);
    await expect(pix.createPixCharge({ txid: newTxid(), amountCents: 1.5, expiresInSeconds: 60, description: '' })).rejects.toThrow(RangeError);
    await expect(pix.createPixCharge({ txid: newTxid(), amountCents: 100, expiresInSeconds: 60, description: 'x'.repeat(141) })).rejects.toThrow(RangeError);
    await expect(pix.getPixCharge('../oauth/token')).rejects.toThrow(RangeError);
  });

  it('gets the BR Code from the location when the charge lacks pixCopiaECola', async () => {
    const charge = await provider({ baseUrl: `${origin}/no-copy-paste` }).getPixCharge(newTxid());
    expect(charge).toMatchObject({ status: 'ATIVA', amountCents: 29, copyPaste: 'CODE-FROM-LOC' });
    expect(charge?.createdAt.toISOString()).toBe('2024-05-01T12:00:00.000Z');
  });

  it('throws PaymentProviderError when a 2xx answer does not have the expected shape', async () => {
    const noExpiry = await rejection(provider({ baseUrl: `${origin}/bad-answer` }).getPixCharge(newTxid()));
    expect(noExpiry.status).toBe(200);
    expect(noExpiry.message).toMatch(/unexpected body[\s\S]*expires_in/);
    const badAmount = await rejection(provider({ baseUrl: `${origin}/bad-amount` }).getPixCharge(newTxid()));
    expect(badAmount.message).toMatch(/malformed amount.*10\.5/);
  });

  it('throws PaymentProviderError status 0 when the PSP cannot be reached or does not answer in time', async () => {
    const closed = Fastify();
    await closed.listen({ host: '127.0.0.1', port: 0 });
    const closedPort = (closed.server.address() as AddressInfo).port;
    await closed.close();
    const unreachable = await rejection(provider({ baseUrl: `http://127.0.0.1:${closedPort}` }).getPixCharge(newTxid()));
    expect(unreachable.status).toBe(0);
    expect(unreachable.message).toMatch(/ECONNREFUSED/);

    const slow = await rejection(provider({ baseUrl: `${origin}/slow`, fetchTimeoutMs: 100 }).getPixCharge(newTxid()));
    expect(slow.status).toBe(0);
    expect(slow.message).toMatch(/no answer within 100 ms/);
  });
});

describe('fake PSP payer side', () => {
  it('answers 400 for an invalid code and 404 for a code of no charge', async () => {
    const pix = provider();
    const created = await pix.createPixCharge({ txid: newTxid(), amountCents: 100, expiresInSeconds: 60, description: '' });
    const broken = created.copyPaste.slice(0, -4) + (created.copyPaste.endsWith('0000') ? '0001' : '0000');
    expect((await pay({ pixCopiaECola: broken })).status).toBe(400);
    expect((await pay({ pixCopiaECola: buildPixBrCode({ key: PIX_KEY, merchantName: 'X', merchantCity: 'Y' }) })).status).toBe(400);
    expect((await pay({ pixCopiaECola: created.copyPaste, amount: '1,00' })).status).toBe(400);

    const unknown = buildPixBrCode({ url: `${new URL(origin).host}/fake-psp/v2/loc/999999`, merchantName: 'X', merchantCity: 'Y', singleUse: true });
    const answer = await pay({ pixCopiaECola: unknown });
    expect(answer.status).toBe(404);
    expect(answer.body.nome).toBe('cobranca_nao_encontrada');
  });

  it('logs, and reports status 0, when the webhook cannot be delivered', async () => {
    const pix = provider({ pixKey: 'unreachable-hook@example.com' });
    await pix.registerWebhook('http://127.0.0.1:1/nowhere');
    const created = await pix.createPixCharge({ txid: newTxid(), amountCents: 100, expiresInSeconds: 60, description: '' });
    const before = warnings.length;
    const paid = await pay({ pixCopiaECola: created.copyPaste });
    expect(paid.status).toBe(200);
    expect(paid.body.webhookStatus).toBe(0);
    expect(warnings.length).toBe(before + 1);
    expect(String(warnings.at(-1)?.[0])).toMatch(/127\.0\.0\.1:1\/nowhere\/pix/);
  });

  it('refuses API calls without a token it issued', async () => {
    const response = await fetch(`${origin}/fake-psp/v2/cob/${newTxid()}`, { headers: { authorization: 'Bearer forged' } });
    expect(response.status).toBe(401);
  });
});

describe('mutual TLS', () => {
  let dir = '';
  let server: HttpsServer | null = null;
  let httpsOrigin = '';
  let setupError = '';
  let handled = 0;
  const files: Record<string, Buffer> = {};

  beforeAll(async () => {
    try {
      dir = mkdtempSync(path.join(tmpdir(), 'pix-mtls-'));
      const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe', timeout: 20_000 });
      const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
      openssl('req', '-x509', ...ecKey, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=Pix Test CA');
      writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
      writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
      for (const name of ['server', 'client']) {
        openssl('req', ...ecKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
        openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', '-extfile', `${name}.ext`);
      }
      openssl('pkcs12', '-export', '-in', 'client.crt', '-inkey', 'client.key', '-out', 'client.p12', '-passout', 'pass:p12-secret');
      for (const name of ['ca.crt', 'server.key', 'server.crt', 'client.key', 'client.crt', 'client.p12']) files[name] = readFileSync(path.join(dir, name));
    } catch (error) {
      setupError = `openssl could not generate the test certificates: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }

    const httpsServer = createHttpsServer(
      { key: files['server.key'], cert: files['server.crt'], ca: files['ca.crt'], requestCert: true, rejectUnauthorized: true },
      (request, response) => {
        handled++;
        response.setHeader('content-type', 'application/json');
        if (request.method === 'POST' && request.url === '/oauth/token') {
          response.end(JSON.stringify({ access_token: 'mtls-token', token_type: 'Bearer', expires_in: 3600 }));
        } else {
          response.statusCode = 404;
          response.end(JSON.stringify({ nome: 'cobranca_nao_encontrada', mensagem: 'não encontrada' }));
        }
      },
    );
    server = httpsServer;
    await new Promise<void>((resolve) => httpsServer.listen(0, '127.0.0.1', resolve));
    httpsOrigin = `https://127.0.0.1:${(httpsServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const efi = (tls: EfiPixProviderOptions['tls']): PaymentProvider =>
    createEfiPixProvider({ baseUrl: httpsOrigin, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, kind: 'efi', tls, fetchTimeoutMs: 5_000 });

  it('uses the client certificate on every request, and fails without one', async ({ skip }) => {
    if (setupError) skip(setupError);

    // PKCS#12 bundle: token and API call both go through the mutually authenticated connection.
    expect(await efi({ pfx: files['client.p12'], passphrase: 'p12-secret', ca: files['ca.crt'] }).getPixCharge(newTxid())).toBeNull();
    expect(handled).toBe(2);
    // PEM certificate and key.
    expect(await efi({ cert: files['client.crt'], key: files['client.key'], ca: files['ca.crt'] }).getPixCharge(newTxid())).toBeNull();
    expect(handled).toBe(4);

    // The server's CA is trusted, but no client certificate is presented: the handshake is refused.
    const error = await rejection(efi({ ca: files['ca.crt'] }).getPixCharge(newTxid()));
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/certificate required|socket hang up|ECONNRESET/i);
    expect(handled).toBe(4);
  });

  it('refuses a client certificate with a plain http base URL', () => {
    expect(() => createEfiPixProvider({ baseUrl: 'http://127.0.0.1:1', clientId: 'a', clientSecret: 'b', pixKey: 'k', kind: 'efi', tls: { pfx: Buffer.from('x') } })).toThrow(TypeError);
  });
});
