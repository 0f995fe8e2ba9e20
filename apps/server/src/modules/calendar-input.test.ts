import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../test/test-app.js';

/**
 * Impossible dates in the list filters and an unknown company time zone answer
 * 400 (they reached PostgreSQL and answered 500, or broke every date filter of
 * the company afterwards).
 */
let t: TestContext;
let companyId: number;
let adminToken: string;
let superToken: string;

beforeAll(async () => {
  t = await createTestContext();
  const company = await t.factories.buildCompany();
  companyId = company.id;
  adminToken = (await company.admin.login()).token;
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
});
afterAll(() => t?.close());

const IMPOSSIBLE = ['2026-02-30', '2026-13-01', '0000-01-01', '2026-02-29'];

describe('dates in list filters', () => {
  it.each([
    ['/tickets', 'date'],
    ['/tickets', 'updatedAt'],
    ['/contacts', 'date'],
    ['/contacts', 'dateStart'],
    ['/contacts', 'dateEnd'],
  ])('GET %s?%s= answers 400 to impossible days and 200 to real ones', async (path, field) => {
    for (const day of IMPOSSIBLE) {
      const response = await t.request(adminToken, 'GET', `${path}?${field}=${day}`);
      expect(response.statusCode, `${field}=${day}`).toBe(400);
      expect(response.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: [expect.any(String)] } });
    }
    expect((await t.request(adminToken, 'GET', `${path}?${field}=2024-02-29`)).statusCode).toBe(200);
  });

  it('a contact filter given as a timestamp on an impossible day, or with an impossible time, answers 400', async () => {
    expect((await t.request(adminToken, 'GET', '/contacts?dateStart=2026-02-30T10:00:00Z')).statusCode).toBe(400);
    expect((await t.request(adminToken, 'GET', '/contacts?dateStart=2026-02-28T25:00')).statusCode).toBe(400);
    expect((await t.request(adminToken, 'GET', '/contacts?dateStart=2026-02-28T10:00:00-03:00')).statusCode).toBe(200);
  });
});

describe('company time zone and due date', () => {
  it('refuses a name that is not an IANA time zone, and the stored one stays', async () => {
    for (const timezone of ['Nowhere/City', '+03:00', 'GMT+3', 'America/Sao Paulo']) {
      const response = await t.request(superToken, 'PUT', `/companies/${companyId}`, { timezone });
      expect(response.statusCode, timezone).toBe(400);
      expect(response.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { timezone: ['Unknown time zone'] } });
    }
    expect((await t.request(superToken, 'GET', `/companies/${companyId}`)).json()).toMatchObject({ timezone: 'America/Sao_Paulo' });
    const created = await t.request(superToken, 'POST', '/companies', { name: 'Fuso errado', planId: 1, timezone: 'Mars/Olympus' });
    expect(created.statusCode).toBe(400);
  });

  it('accepts a real one, and the date filters of the company keep working with it', async () => {
    const response = await t.request(superToken, 'PUT', `/companies/${companyId}`, { timezone: 'Europe/Lisbon' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ timezone: 'Europe/Lisbon' });
    expect((await t.request(adminToken, 'GET', '/tickets?date=2026-01-15')).statusCode).toBe(200);
    expect((await t.request(adminToken, 'GET', '/contacts?dateStart=2026-01-01&dateEnd=2026-01-31')).statusCode).toBe(200);
  });

  it('refuses an impossible due date instead of rolling it over to March', async () => {
    const response = await t.request(superToken, 'PUT', `/companies/${companyId}`, { dueDate: '2026-02-30' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { dueDate: [expect.any(String)] } });
  });
});
