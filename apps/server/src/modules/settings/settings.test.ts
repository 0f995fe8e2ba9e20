import { SETTING_ALIASES, SETTING_KEYS } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('settings', () => {
  it('a new company has every default setting', async () => {
    const company = await t.factories.buildCompany();
    const { token } = await company.admin.login();
    const response = await t.request(token, 'GET', '/settings');
    expect(response.statusCode).toBe(200);
    const keys = response.json().map((s: { key: string }) => s.key);
    // Every key, and whaticket v6's names of the sign-up switch.
    expect(keys.sort()).toEqual([...SETTING_KEYS, ...Object.keys(SETTING_ALIASES)].sort());
    expect(response.json()).toEqual(expect.arrayContaining([{ key: 'userRating', value: 'disabled' }, { key: 'chatBotType', value: 'text' }]));
    const filtered = await t.request(token, 'GET', '/settings?key=scheduleType');
    expect(filtered.json()).toEqual([{ key: 'scheduleType', value: 'disabled' }]);
  });

  it('validates allowed values and unknown keys', async () => {
    const company = await t.factories.buildCompany();
    const { token } = await company.admin.login();
    const ok = await t.request(token, 'PUT', '/settings/scheduleType', { value: 'company' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ key: 'scheduleType', value: 'company' });
    const bad = await t.request(token, 'PUT', '/settings/scheduleType', { value: 'sometimes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.value[0]).toContain('disabled, queue, company');
    expect((await t.request(token, 'PUT', '/settings/userRating', { value: 'yes' })).statusCode).toBe(400);
    const unknown = await t.request(token, 'PUT', '/settings/noSuchKey', { value: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('ERR_NO_SETTING_FOUND');
    expect((await t.request(token, 'PUT', '/settings/asaas', { value: 'free text token' })).statusCode).toBe(200);
    expect((await t.request(token, 'PUT', '/settings/asaas', { value: 'x'.repeat(501) })).statusCode).toBe(400);
    // The chatbot's menu words reach customers through the message variables: an unknown one is refused.
    expect((await t.request(token, 'PUT', '/settings/chatbotChooseOption', { value: '{{saudação}}, {primeiroNome}! Escolha:' })).statusCode).toBe(200);
    const variable = await t.request(token, 'PUT', '/settings/chatbotChooseOption', { value: '{{saudacao}}, {cliente}! Escolha:' });
    expect(variable.json()).toEqual({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { value: ['{cliente}'] } });
  });

  it('only admins change settings, and only their own company', async () => {
    const a = await t.factories.buildCompany();
    const b = await t.factories.buildCompany();
    const agent = await t.factories.buildUser(a.id);
    const agentToken = (await agent.login()).token;
    expect((await t.request(agentToken, 'PUT', '/settings/userRating', { value: 'enabled' })).statusCode).toBe(403);
    const bToken = (await b.admin.login()).token;
    await t.request(bToken, 'PUT', '/settings/userRating', { value: 'enabled' });
    const aSettings = (await t.request(agentToken, 'GET', '/settings')).json();
    expect(aSettings).toEqual(expect.arrayContaining([{ key: 'userRating', value: 'disabled' }]));
  });
});
