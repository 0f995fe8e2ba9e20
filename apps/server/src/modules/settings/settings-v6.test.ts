import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '../../platform/db/schema.js';
import { multipart, multipartForm } from '../../test/multipart.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

/**
 * The whaticket v6 client's setting keys and uploads (issue 32): every key its Options page
 * reads and writes, the platform's keys kept in the main company, the sign-up switch under
 * v6's names, the start-up language, and the files of its settings screens.
 */

let t: TestContext;
let superToken: string;
beforeAll(async () => {
  t = await createTestContext();
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
});
afterAll(() => t.close());

const V6_OPTIONS_KEYS = [
  'userRating',
  'scheduleType',
  'call',
  'CheckMsgIsGroup',
  'chatBotType',
  'sendGreetingAccepted',
  'sendGreetingAcceptedMessage',
  'sendMsgTransfTicket',
  'sendMsgTransfTicketMessage',
  'sendGreetingMessageOneQueues',
  'allowregister',
  'viewregister',
  'trial',
  'viewclosed',
  'viewgroups',
  'ipixc',
  'tokenixc',
  'ipmkauth',
  'clientidmkauth',
  'clientsecretmkauth',
  'asaas',
  'birthdayReminderEnabled',
  'birthdayMessage',
  'birthdayReminderTime',
  'holidayPeriodEnabled',
  'holidayPeriodAllowQueueFlow',
  'giphyApiKey',
  'geminiApiToken',
  'geminiModel',
  'gerencianetSandbox',
  'gerencianetClientId',
  'gerencianetClientSecret',
  'gerencianetPixKey',
  'mercadoPagoAccessToken',
  'mercadoPagoPublicKey',
  'mercadoPagoWebhookSecret',
  'subscriptionPaymentProvider',
];

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
const upload = (token: string, url: string, fileName: string, mimeType: string) => {
  const form = multipart(fileName, mimeType, PNG);
  return t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
};

describe("whaticket v6's setting keys", () => {
  it('every key of its Options page is listed, readable and writable (the platform ones by super users)', async () => {
    const listed = (await t.request(superToken, 'GET', '/settings')).json<{ key: string }[]>().map((s) => s.key);
    expect(listed).toEqual(expect.arrayContaining(V6_OPTIONS_KEYS));
    for (const key of V6_OPTIONS_KEYS) {
      const read = await t.request(superToken, 'GET', `/settings/${key}`);
      expect(read.statusCode, key).toBe(200);
      const value = key === 'trial' ? '7' : key === 'gerencianetSandbox' ? 'true' : ['allowregister', 'viewregister'].includes(key) ? 'enabled' : read.json<{ value: string }>().value || 'x';
      // v6's GeminiModelSelector sends only {value}; the rest send {key, value}.
      const written = await t.request(superToken, 'PUT', `/settings/${key}`, key === 'geminiModel' ? { value } : { key, value });
      expect(written.statusCode, key).toBe(200);
      expect(written.json(), key).toMatchObject({ key });
    }
  });

  it("platform keys live in the main company: every company's users read the same Giphy key, only super users write it", async () => {
    expect((await t.request(superToken, 'PUT', '/settings/giphyApiKey', { value: 'giphy-key-1' })).statusCode).toBe(200);
    const company = await t.factories.buildCompany();
    const adminToken = (await company.admin.login()).token;
    const agent = await t.factories.buildUser(company.id);
    const agentToken = (await agent.login()).token;
    expect((await t.request(agentToken, 'GET', '/settings/giphyApiKey')).json()).toEqual({ key: 'giphyApiKey', value: 'giphy-key-1' });
    expect((await t.request(adminToken, 'PUT', '/settings/giphyApiKey', { value: 'mine' })).statusCode).toBe(403);
    expect((await t.request(adminToken, 'PUT', '/settings/allowregister', { value: 'disabled' })).statusCode).toBe(403);
    // A company's own key is its own: geminiModel.
    expect((await t.request(adminToken, 'PUT', '/settings/geminiModel', { value: 'gemini-1.5-pro' })).statusCode).toBe(200);
    expect((await t.request(superToken, 'GET', '/settings/geminiModel')).json<{ value: string }>().value).not.toBe('gemini-1.5-pro');
    // Secrets stay masked; agents do not read admin keys.
    expect((await t.request(adminToken, 'PUT', '/settings/tokenixc', { value: 'very-secret-token' })).json<{ value: string }>().value).not.toContain('very-secret');
    expect((await t.request(agentToken, 'GET', '/settings/ipixc')).statusCode).toBe(404);
  });

  it('allowregister/viewregister are the sign-up switch; trial sets the days of a new trial; bad values are 400', async () => {
    expect((await t.request(superToken, 'PUT', '/settings/viewregister', { value: 'disabled' })).json()).toEqual({ key: 'viewregister', value: 'disabled' });
    expect((await t.app.inject({ method: 'GET', url: '/settings/allowregister' })).json()).toEqual({ key: 'allowregister', value: 'disabled' });
    expect((await t.request(superToken, 'GET', '/settings/publicSignup')).json()).toEqual({ key: 'publicSignup', value: 'disabled' });
    expect((await t.request(superToken, 'PUT', '/settings/allowregister', { value: 'enabled' })).statusCode).toBe(200);
    expect((await t.request(superToken, 'PUT', '/settings/trial', { value: '10' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/settings/trial' })).json()).toEqual({ key: 'trial', value: '10' });
    const bad = await t.request(superToken, 'PUT', '/settings/trial', { value: 'forever' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.value).toBeDefined();
    expect((await t.request(superToken, 'PUT', '/settings/viewclosed', { value: 'maybe' })).statusCode).toBe(400);
    expect((await t.request(superToken, 'PUT', '/settings/trial', { value: '3' })).statusCode).toBe(200);
  });

  it('system-default-language answers the install language before sign-in; /users/me/language the user’s', async () => {
    const open = await t.app.inject({ method: 'GET', url: '/settings/system-default-language' });
    expect(open.json()).toEqual({ key: 'system-default-language', value: 'pt', language: 'pt' });
    const company = await t.factories.buildCompany();
    const adminToken = (await company.admin.login()).token;
    expect((await t.request(adminToken, 'GET', '/users/me/language')).json()).toEqual({ language: 'pt', own: false });
    await t.request(adminToken, 'PUT', '/settings/language', { value: 'es' });
    expect((await t.request(adminToken, 'GET', '/users/me/language')).json()).toEqual({ language: 'es', own: false });
    await t.request(adminToken, 'POST', '/users/set-language/en');
    expect((await t.request(adminToken, 'GET', '/users/me/language')).json()).toEqual({ language: 'en', own: true });
  });
});

describe("whaticket v6's settings uploads", () => {
  it('super users store the login images and the Gerencianet certificate; others are refused; wrong files are 400', async () => {
    const image = await upload(superToken, '/settings/media-upload?ref=login', 'login.png', 'image/png');
    expect(image.statusCode).toBe(200);
    expect(image.json()).toMatchObject({ mensagem: 'Arquivo Anexado' });
    expect((await upload(superToken, '/settings/media-upload?ref=nowhere', 'login.png', 'image/png')).statusCode).toBe(400);
    expect((await upload(superToken, '/settings/media-upload?ref=favicon', 'notes.txt', 'text/plain')).statusCode).toBe(400);
    const cert = await upload(superToken, '/settings/gerencianet-cert-upload', 'producao.p12', 'application/x-pkcs12');
    expect(cert.statusCode).toBe(200);
    expect(cert.json()).toMatchObject({ setting: { value: 'producao.p12' }, filename: 'producao.p12' });
    // The stored files are not settings anyone lists.
    expect((await t.request(superToken, 'GET', '/settings')).json<{ key: string }[]>().some((s) => s.key.startsWith('upload.'))).toBe(false);
    const company = await t.factories.buildCompany();
    const adminToken = (await company.admin.login()).token;
    expect((await upload(adminToken, '/settings/media-upload?ref=login', 'login.png', 'image/png')).statusCode).toBe(403);
  });

  it("serves v6's logo addresses without login: Atende's logo until a super user uploads one, then that image", async () => {
    const before = await t.app.inject({ method: 'GET', url: '/public/logotipos/interno.png' });
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-type']).toContain('image/svg+xml');
    expect(before.body).toContain('Atende');
    expect((await upload(superToken, '/settings/media-upload?ref=interno', 'interno.png', 'image/png')).statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/public/logotipos/interno.png' });
    expect(after.headers['content-type']).toBe('image/png');
    expect(after.rawPayload.equals(PNG)).toBe(true);
    // A company's logo is the platform's (no company's own file is reachable this way).
    const company = await t.app.inject({ method: 'GET', url: '/public/company1/logotipos/logo.svg' });
    expect(company.statusCode).toBe(200);
    expect(company.headers['content-type']).toMatch(/^image\//);
    for (const url of ['/public/logotipos/..%2F..%2Fetc%2Fpasswd', '/public/logotipos/login.exe', '/public/other/logotipos/logo.png']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBeGreaterThanOrEqual(400);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBeLessThan(500);
    }
  });

  it('validate/webhook checks the address for form and calls nothing', async () => {
    const ok = await t.request(superToken, 'POST', '/subscription/validate/webhook', { url: 'https://api.example.com/subscription/webhook' });
    expect(ok.json()).toMatchObject({ success: true, url: 'https://api.example.com/subscription/webhook' });
    expect((await t.request(superToken, 'POST', '/subscription/validate/webhook', { url: 'http://api.example.com/x' })).json()).toMatchObject({ success: false });
    expect((await t.request(superToken, 'POST', '/subscription/validate/webhook', { url: 'not a url' })).statusCode).toBe(400);
  });
});

describe("whaticket v6's calls from files its entry never loads", () => {
  it('the whitelabel logo is a super user’s upload (Light or Dark); audio transcription is a clear refusal', async () => {
    const form = multipartForm({ file: { fileName: 'logo.png', mimeType: 'image/png', data: PNG }, mode: 'Dark' });
    const logo = await t.app.inject({ method: 'POST', url: '/settings/logo', headers: { authorization: `Bearer ${superToken}`, ...form.headers }, payload: form.payload });
    expect(logo.json()).toMatchObject({ mensagem: 'Arquivo Anexado', mode: 'Dark', filename: 'logo.png' });
    const transcribe = await t.request(superToken, 'GET', '/messages/transcribeAudio/audio.ogg');
    expect(transcribe.statusCode).toBe(409);
    expect(transcribe.json()).toMatchObject({ error: 'ERR_TRANSCRIPTION_UNAVAILABLE' });
  });

  it("invoices: the company's list and one invoice, for its admins; another company's invoice is not found", async () => {
    const company = await t.factories.buildCompany();
    const other = await t.factories.buildCompany();
    const adminToken = (await company.admin.login()).token;
    const [mine] = await t.database.db.insert(invoices).values({ companyId: company.id, detail: 'Plano mensal', valueCents: 9990, dueDate: '2030-01-10' }).returning();
    const [theirs] = await t.database.db.insert(invoices).values({ companyId: other.id, detail: 'Deles', valueCents: 100, dueDate: '2030-01-10' }).returning();
    const list = await t.request(adminToken, 'GET', '/invoices/list');
    expect(list.json()).toEqual([expect.objectContaining({ id: mine!.id, detail: 'Plano mensal', value: 99.9 })]);
    expect((await t.request(adminToken, 'GET', `/invoices/${mine!.id}`)).json()).toMatchObject({ id: mine!.id, status: 'open' });
    expect((await t.request(adminToken, 'GET', `/invoices/${theirs!.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/invoices/list' })).statusCode).toBe(401);
    const agent = await t.factories.buildUser(company.id);
    expect((await t.request((await agent.login()).token, 'GET', '/invoices/list')).statusCode).toBe(403);
  });
});
