import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { MAX_INPUT_DEPTH } from '../text/unsafe-text.js';

/**
 * API input with NUL or an unpaired surrogate anywhere (body values and keys at
 * any depth, query and path parameters) answers 400 in the validation shape with
 * the field named, before it can reach PostgreSQL (which answered 500).
 */
let t: TestContext;
let token: string;
let contactId: number;

beforeAll(async () => {
  t = await createTestContext();
  const company = await t.factories.buildCompany();
  token = (await company.admin.login()).token;
  contactId = (await createServiceDeskFactories(t.database.db).buildContact(company.id, { name: 'Clean name' })).id;
});
afterAll(() => t?.close());

function expectRefused(response: { statusCode: number; json: () => unknown }, part: string, field: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ error: 'ERR_VALIDATION', message: `Invalid ${part}`, fields: { [field]: [expect.any(String)] } });
}

describe('unsafe text in API input', () => {
  it('a body string with NUL: 400 naming the field, nothing stored', async () => {
    const response = await t.request(token, 'POST', '/contacts', { name: 'Ana\u0000', number: '5511955550001' });
    expectRefused(response, 'body', 'name');
    const list = await t.request(token, 'GET', '/contacts?searchParam=5511955550001');
    expect(list.json()).toMatchObject({ count: 0 });
  });

  it('a lone surrogate deep in a body, and one in a key: 400 naming the path', async () => {
    expectRefused(await t.request(token, 'PUT', `/contacts/${contactId}`, { extraInfo: [{ name: 'cpf', value: 'x\ud800' }] }), 'body', 'extraInfo.0.value');
    expectRefused(await t.request(token, 'PUT', `/contacts/${contactId}`, { ['name\udc00']: 'x' }), 'body', 'name\udc00');
    const contact = await t.request(token, 'GET', `/contacts/${contactId}`);
    expect(contact.json()).toMatchObject({ name: 'Clean name', extraInfo: [] });
  });

  it('a query parameter with NUL: 400 naming it (the search used to reach the database and answer 500)', async () => {
    expectRefused(await t.request(token, 'GET', '/tickets?searchParam=a%00b'), 'querystring', 'searchParam');
    expectRefused(await t.request(token, 'GET', '/contacts?searchParam=%00'), 'querystring', 'searchParam');
  });

  it('a path parameter with NUL: 400 naming it', async () => {
    expectRefused(await t.request(token, 'GET', '/settings/userRating%00'), 'params', 'key');
  });

  it(`a body nested deeper than ${MAX_INPUT_DEPTH} levels: 400, even in a field the schema leaves unread`, async () => {
    const payload = `{"shortcode":"deep","message":"hi","companyId":${'['.repeat(5000)}"x"${']'.repeat(5000)}}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/quick-messages',
      payload,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'ERR_VALIDATION', message: 'Invalid body' });
  });
});
