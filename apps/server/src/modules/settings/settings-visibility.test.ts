import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../platform/crypto/secret-box.js';
import { settings } from '../../platform/db/schema.js';
import type { BuiltCompany } from '../../test/factories.js';
import { socketClients, type SocketClients } from '../../test/socket-clients.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { inTenant } from '../../platform/db/tenant.js';

/**
 * Issue 16 defect 5: the billing token (a secret setting) and admin-only settings
 * are not for plain users, in answers or on sockets; secrets are sealed at rest.
 */
let t: TestContext;
let clients: SocketClients;
const TOKEN = '$aact_prod_000000000000000000000000abcd1234';

beforeAll(async () => {
  t = await createTestContext({ realtime: true, listen: true });
  clients = socketClients(t.app);
});
afterAll(async () => {
  clients?.closeAll();
  await t.close();
});

const connect = (token: string): Promise<Socket> => clients.connect(token);

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function storedValue(companyId: number, key: string): Promise<string | undefined> {
  const [row] = await t.database.db
    .select({ value: settings.value })
    .from(settings)
    .where(inTenant(settings, { companyId }, eq(settings.key, key)));
  return row?.value;
}

describe('settings visibility', () => {
  let company: BuiltCompany;
  let adminToken: string;
  let agentToken: string;

  beforeAll(async () => {
    company = await t.factories.buildCompany();
    adminToken = (await company.admin.login()).token;
    agentToken = (await (await t.factories.buildUser(company.id)).login()).token;
    expect((await t.request(adminToken, 'PUT', '/settings/asaas', { value: TOKEN })).statusCode).toBe(200);
  });

  it('a plain user reads public settings only: no billing token, no admin-only key', async () => {
    const list = await t.request(agentToken, 'GET', '/settings');
    expect(list.statusCode).toBe(200);
    const keys = list.json<{ key: string }[]>().map((s) => s.key);
    expect(keys).toContain('userRating');
    expect(keys).not.toContain('asaas');
    expect(keys).not.toContain('userCreation');
    expect(list.body).not.toContain('abcd1234');
    expect((await t.request(agentToken, 'GET', '/settings?key=asaas')).json()).toEqual([]);
    for (const key of ['asaas', 'userCreation']) {
      const one = await t.request(agentToken, 'GET', `/settings/${key}`);
      expect(one.statusCode).toBe(404);
      expect(one.json().error).toBe('ERR_NO_SETTING_FOUND');
    }
    expect((await t.request(agentToken, 'GET', '/settings/userRating')).json()).toEqual({ key: 'userRating', value: 'disabled' });
    // The session answer (login, /auth/me) carries the public settings only.
    const me = await t.request(agentToken, 'GET', '/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.body).not.toContain('asaas');
    expect(me.json().company.settings.map((s: { key: string }) => s.key)).toContain('sideMenu');
  });

  it('an admin sees every key, the secret masked in the list and alone', async () => {
    const list = (await t.request(adminToken, 'GET', '/settings')).json<{ key: string; value: string }[]>();
    expect(list.map((s) => s.key)).toEqual(expect.arrayContaining(['asaas', 'userCreation', 'userRating']));
    const asaas = list.find((s) => s.key === 'asaas');
    expect(asaas?.value).toBe('$aa••••1234');
    expect((await t.request(adminToken, 'GET', '/settings/asaas')).json()).toEqual({ key: 'asaas', value: '$aa••••1234' });
  });

  it('the secret is sealed at rest; saving its masked form back keeps it; a new value replaces it', async () => {
    const sealed = await storedValue(company.id, 'asaas');
    expect(sealed).not.toContain(TOKEN);
    expect(createSecretBox(t.config.ENCRYPTION_KEY).open(sealed ?? '')).toBe(TOKEN);

    const unchanged = await t.request(adminToken, 'PUT', '/settings/asaas', { value: '$aa••••1234' });
    expect(unchanged.json()).toEqual({ key: 'asaas', value: '$aa••••1234' });
    expect(createSecretBox(t.config.ENCRYPTION_KEY).open((await storedValue(company.id, 'asaas')) ?? '')).toBe(TOKEN);

    const replaced = await t.request(adminToken, 'PUT', '/settings/asaas', { value: 'another-token-5678' });
    expect(replaced.json()).toEqual({ key: 'asaas', value: 'ano••••5678' });
    expect(createSecretBox(t.config.ENCRYPTION_KEY).open((await storedValue(company.id, 'asaas')) ?? '')).toBe('another-token-5678');
    await t.request(adminToken, 'PUT', '/settings/asaas', { value: TOKEN });
  });

  it('a billing token stored plain by an older version is shown masked and sealed at its next save', async () => {
    const other = await t.factories.buildCompany();
    const token = (await other.admin.login()).token;
    await t.database.db
      .update(settings)
      .set({ value: 'legacy-plain-token-9999' })
      .where(inTenant(settings, { companyId: other.id }, eq(settings.key, 'asaas')));
    expect((await t.request(token, 'GET', '/settings/asaas')).json().value).toBe('leg••••9999');
    await t.request(token, 'PUT', '/settings/asaas', { value: 'leg••••9999' });
    const stored = (await storedValue(other.id, 'asaas')) ?? '';
    expect(stored).not.toContain('legacy');
    expect(createSecretBox(t.config.ENCRYPTION_KEY).open(stored)).toBe('legacy-plain-token-9999');
  });

  it('changes of admin and secret keys reach admins only, a secret masked; public changes reach everyone', async () => {
    const admin = await connect(adminToken);
    const agent = await connect(agentToken);
    const event = `company-${company.id}-settings`;
    const adminSaw: { setting: { key: string; value: string } }[] = [];
    const agentSaw: { setting: { key: string; value: string } }[] = [];
    admin.on(event, (payload: (typeof adminSaw)[number]) => adminSaw.push(payload));
    agent.on(event, (payload: (typeof agentSaw)[number]) => agentSaw.push(payload));

    await t.request(adminToken, 'PUT', '/settings/asaas', { value: 'socket-token-4321' });
    await t.request(adminToken, 'PUT', '/settings/userCreation', { value: 'disabled' });
    await t.request(adminToken, 'PUT', '/settings/userRating', { value: 'enabled' });
    await settle();

    expect(adminSaw.map((p) => p.setting)).toEqual([
      { key: 'asaas', value: 'soc••••4321' },
      { key: 'userCreation', value: 'disabled' },
      { key: 'userRating', value: 'enabled' },
    ]);
    expect(agentSaw.map((p) => p.setting)).toEqual([{ key: 'userRating', value: 'enabled' }]);
    expect(JSON.stringify(adminSaw)).not.toContain('socket-token-4321');
  });
});
