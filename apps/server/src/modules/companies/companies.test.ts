import { NO_EXPIRY_DUE_DATE } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let superToken: string;
beforeAll(async () => {
  t = await createTestContext();
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
});
afterAll(() => t.close());

describe('companies (super users)', () => {
  it('creates a company with default settings and a first admin who can log in', async () => {
    const plans = (await t.request(superToken, 'GET', '/plans/all')).json();
    const response = await t.request(superToken, 'POST', '/companies', {
      name: 'Padaria Central',
      email: 'dono@padaria.com',
      password: 'secret1',
      planId: plans[0].id,
      dueDate: '2099-01-01',
      recurrence: 'MENSAL',
      campaignsEnabled: false,
    });
    expect(response.statusCode).toBe(201);
    const company = response.json();
    expect(company).toMatchObject({ name: 'Padaria Central', campaignsEnabled: false, recurrence: 'MENSAL', status: true });
    expect(company.dueDate).toBe('2099-01-01');
    const owner = await t.login('dono@padaria.com', 'secret1');
    expect(owner.companyId).toBe(company.id);
    const settings = (await t.request(owner.token, 'GET', '/settings')).json();
    expect(settings).toEqual(expect.arrayContaining([{ key: 'campaignsEnabled', value: 'false' }]));
  });

  it('reads an empty or invalid due date as no expiry, shown as a far-future date (never null)', async () => {
    const plans = (await t.request(superToken, 'GET', '/plans/all')).json();
    const created = (await t.request(superToken, 'POST', '/companies', { name: 'No Due', planId: plans[0].id, dueDate: 'not a date' })).json();
    expect(created.dueDate).toBe(NO_EXPIRY_DUE_DATE);
    const updated = await t.request(superToken, 'PUT', `/companies/${created.id}`, { dueDate: '' });
    expect(updated.json().dueDate).toBe(NO_EXPIRY_DUE_DATE);
  });

  it('lists, pages, updates and deletes; company 1 cannot be deleted', async () => {
    const list = await t.request(superToken, 'GET', '/companies/list');
    expect(list.statusCode).toBe(200);
    expect(list.json().length).toBeGreaterThanOrEqual(1);
    const page = await t.request(superToken, 'GET', '/companies?searchParam=padaria');
    expect(page.json()).toMatchObject({ count: 1, hasMore: false });
    const id = page.json().companies[0].id;
    expect((await t.request(superToken, 'PUT', `/companies/${id}`, { name: 'Padaria Nova', campaignsEnabled: true })).json()).toMatchObject({
      name: 'Padaria Nova',
      campaignsEnabled: true,
    });
    expect((await t.request(superToken, 'DELETE', '/companies/1')).json().error).toBe('ERR_CANNOT_DELETE_MAIN_COMPANY');
    expect((await t.request(superToken, 'DELETE', `/companies/${id}`)).statusCode).toBe(200);
    expect((await t.request(superToken, 'GET', `/companies/${id}`)).statusCode).toBe(404);
  });

  it('non-super admins are refused on super routes', async () => {
    const company = await t.factories.buildCompany();
    const { token } = await company.admin.login();
    for (const [method, url] of [
      ['GET', '/companies'],
      ['GET', '/companies/list'],
      ['POST', '/companies'],
      ['PUT', `/companies/${company.id}`],
      ['DELETE', '/companies/1'],
      ['POST', '/plans'],
      ['PUT', '/plans/1'],
      ['DELETE', '/plans/1'],
    ] as const) {
      const body = method === 'POST' ? { name: 'X Company', planId: 1 } : method === 'PUT' ? { name: 'X Company' } : undefined;
      const response = await t.request(token, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error).toBe('ERR_NO_PERMISSION');
    }
  });

  it('an admin reads its own plan and edits its own schedules', async () => {
    const company = await t.factories.buildCompany({ plan: { useKanban: false } });
    const { token } = await company.admin.login();
    const plan = await t.request(token, 'GET', `/companies/listPlan/${company.id}`);
    expect(plan.json()).toMatchObject({ id: company.id, plan: { useKanban: false, useCampaigns: true } });
    const schedules = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '17:00' }];
    const saved = await t.request(token, 'PUT', `/companies/${company.id}/schedules`, { schedules });
    expect(saved.statusCode).toBe(200);
    // Answered in both clients' names: the first interval also as v6's startTimeA/endTimeA, no second one.
    expect(saved.json().schedules).toEqual([{ ...schedules[0], startTimeA: '09:00', endTimeA: '17:00', startTimeB: '', endTimeB: '' }]);
    const bad = await t.request(token, 'PUT', `/companies/${company.id}/schedules`, {
      schedules: [{ ...schedules[0], startTime: '25:99' }],
    });
    expect(bad.statusCode).toBe(400);
    // whaticket v6's shape: two intervals a day, '' when closed.
    const v6 = await t.request(token, 'PUT', `/companies/${company.id}/schedules`, {
      id: company.id,
      schedules: [
        { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' },
        { weekday: 'Domingo', weekdayEn: 'sunday', startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' },
      ],
    });
    expect(v6.statusCode).toBe(200);
    expect(v6.json().schedules).toEqual([
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' },
      { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '', endTime: '', startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' },
    ]);
    const badB = await t.request(token, 'PUT', `/companies/${company.id}/schedules`, { schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13h', endTimeB: '' }] });
    expect(badB.statusCode).toBe(400);
    expect(Object.keys(badB.json().fields)).toEqual(['schedules.0.startTimeB']);
  });
});

describe('plans', () => {
  it('lists publicly, and super users create, update and delete with value in reais', async () => {
    const publicList = await t.app.inject({ method: 'GET', url: '/plans/list' });
    expect(publicList.statusCode).toBe(200);
    // The whaticket v6 client's sign-up page reads the same list from /plans/register.
    const v6List = await t.app.inject({ method: 'GET', url: '/plans/register' });
    expect(v6List.statusCode).toBe(200);
    expect(v6List.json()).toEqual(publicList.json());
    const created = await t.request(superToken, 'POST', '/plans', { name: 'Plano Ouro', users: 5, value: 199.9, useKanban: false });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Plano Ouro', users: 5, connections: 0, value: 199.9, useKanban: false, useCampaigns: true });
    const id = created.json().id;
    expect((await t.request(superToken, 'POST', '/plans', { name: 'Plano Ouro' })).json().error).toBe('ERR_PLAN_NAME_ALREADY_EXISTS');
    // An edit changes only what it sends: the limits and flags left out keep their values.
    expect((await t.request(superToken, 'PUT', `/plans/${id}`, { value: 250 })).json()).toMatchObject({ value: 250, users: 5, useKanban: false, useCampaigns: true });
    // Prices as the screens show them (Brazilian format), in whole cents.
    expect((await t.request(superToken, 'PUT', `/plans/${id}`, { value: '1.299,90' })).json()).toMatchObject({ value: 1299.9 });
    const fraction = await t.request(superToken, 'PUT', `/plans/${id}`, { value: 10.005 });
    expect(fraction.statusCode).toBe(400);
    expect(fraction.json().fields).toHaveProperty('value');
    expect((await t.request(superToken, 'GET', `/plans/${id}`)).json().name).toBe('Plano Ouro');
    expect((await t.request(superToken, 'GET', '/plans?searchParam=ouro')).json().count).toBe(1);
    expect((await t.request(superToken, 'DELETE', `/plans/${id}`)).statusCode).toBe(200);
    expect((await t.request(superToken, 'GET', `/plans/${id}`)).statusCode).toBe(404);
  });

  it('refuses deleting a plan in use', async () => {
    const company = await t.factories.buildCompany();
    const response = await t.request(superToken, 'DELETE', `/plans/${company.planId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('ERR_PLAN_IN_USE');
  });
});
