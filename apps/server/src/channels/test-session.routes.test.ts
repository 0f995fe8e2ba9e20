import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

/** The browser tests' session stand-in must never exist outside NODE_ENV=test. */
describe('test session route', () => {
  describe.each(['development', 'production'])('with NODE_ENV=%s', (mode) => {
    let t: TestContext;
    let token: string;
    let whatsappId: number;
    beforeAll(async () => {
      // Production refuses to start without explicit secrets; testConfig gives them.
      t = await createTestContext({ env: { NODE_ENV: mode } });
      token = (await t.login('admin@admin.com', 'Admin123!')).token;
      const created = await t.request(token, 'POST', '/whatsapp', { name: 'Loja', provider: 'sandbox' });
      whatsappId = created.json<{ id: number }>().id;
    });
    afterAll(() => t.close());

    it('is not registered: 404 and the connection unchanged', async () => {
      expect(t.config.NODE_ENV).toBe(mode);
      const response = await t.request(token, 'POST', `/test/connections/${whatsappId}/session`, { status: 'qrcode', qrcode: 'fake' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).not.toHaveProperty('status');
      const connection = (await t.request(token, 'GET', `/whatsapp/${whatsappId}`)).json<{ status: string; qrcode: string }>();
      expect(connection).toMatchObject({ status: 'CONNECTED', qrcode: '' });
    });
  });

  describe('with NODE_ENV=test', () => {
    let t: TestContext;
    let company: BuiltCompany;
    let adminToken: string;
    let whatsappId: number;
    const published: { entity: string; rooms: string[]; payload: unknown }[] = [];
    beforeAll(async () => {
      t = await createTestContext();
      company = await t.factories.buildCompany();
      adminToken = (await company.admin.login()).token;
      whatsappId = (await t.request(adminToken, 'POST', '/whatsapp', { name: 'Loja', provider: 'sandbox' })).json<{ id: number }>().id;
      const publisher = t.app.services.publisher;
      const original = publisher.toRooms.bind(publisher);
      publisher.toRooms = (companyId, rooms, entity, payload) => {
        published.push({ entity, rooms, payload });
        original(companyId, rooms, entity, payload);
      };
    });
    afterAll(() => t.close());

    it("writes the session state and announces it as a provider's would", async () => {
      const response = await t.request(adminToken, 'POST', `/test/connections/${whatsappId}/session`, { status: 'qrcode', qrcode: '2@fake-qr' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: whatsappId, status: 'qrcode', qrcode: '2@fake-qr' });
      expect(published.find((p) => p.entity === 'whatsappSession')).toMatchObject({
        rooms: [`company:${company.id}:admins`],
        payload: { action: 'update', session: { id: whatsappId, status: 'qrcode', qrcode: '2@fake-qr' } },
      });
      expect(published.find((p) => p.entity === 'whatsapp')).toMatchObject({ payload: { action: 'update', whatsapp: { id: whatsappId, status: 'qrcode' } } });
    });

    it("refuses a plain user and another company's connection", async () => {
      const agent = await t.factories.buildUser(company.id);
      const agentToken = (await agent.login()).token;
      expect((await t.request(agentToken, 'POST', `/test/connections/${whatsappId}/session`, { status: 'CONNECTED' })).statusCode).toBe(403);
      const other = await t.factories.buildCompany();
      const otherToken = (await other.admin.login()).token;
      expect((await t.request(otherToken, 'POST', `/test/connections/${whatsappId}/session`, { status: 'CONNECTED' })).statusCode).toBe(404);
    });
  });
});
