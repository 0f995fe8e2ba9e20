import { dayIn, greetingOfTheDay, wallClockIn } from '@atende/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, invoices } from '../../platform/db/schema.js';
import { companyExpiresAt, isCompanyExpired } from '../../platform/http/context.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { createDueInvoices } from '../invoices/invoices.repo.js';
import { presentInvoice } from '../invoices/invoices.presenter.js';

/** DECISIONS 7 and 15: the company's zone for every clock and day, calendar dates stored as dates. */
let t: TestContext;
let superToken: string;
beforeAll(async () => {
  t = await createTestContext();
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
});
afterAll(() => t.close());

async function setZone(companyId: number, timezone: string) {
  await t.database.db.update(companies).set({ timezone }).where(eq(companies.id, companyId));
  await t.app.services.access.changed({ companyId });
}

const storedDueDate = async (companyId: number) =>
  ((await t.database.db.execute(sql`select due_date::text as due_date from companies where id = ${companyId}`)) as unknown as { rows: { due_date: string | null }[] }).rows[0]?.due_date;

describe('message variables in the company zone', () => {
  it("fills {{hora}}, {{data}} and {{ms}} with the company's clock, not the server's", async () => {
    const company = await t.factories.buildCompany();
    await setZone(company.id, 'Asia/Tokyo');
    const { token } = await company.admin.login();
    const connection = await t.request(token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    const { ticketId } = (await t.request(token, 'POST', `/sandbox/${connection.json().id}/inbound`, { from: '5511999990101', name: 'Ana', body: 'Oi' })).json();
    await t.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' });

    const before = new Date();
    const sent = await t.request(token, 'POST', `/messages/${ticketId}`, { body: '{{data}} {{hora}} {{ms}}' });
    const after = new Date();
    expect(sent.statusCode).toBe(201);
    const body = sent.json()[0].body as string;
    const expected = (at: Date) => {
      const c = wallClockIn(at, 'Asia/Tokyo');
      const p = (n: number) => String(n).padStart(2, '0');
      return `${p(c.day)}/${p(c.month)}/${c.year} ${p(c.hour)}:${p(c.minute)}`;
    };
    expect([expected(before), expected(after)]).toContain(body.slice(0, 16));
    expect(body.endsWith(greetingOfTheDay(wallClockIn(after, 'Asia/Tokyo').hour)) || body.endsWith(greetingOfTheDay(wallClockIn(before, 'Asia/Tokyo').hour))).toBe(true);
    // Tokyo is 12 hours from São Paulo: the default zone's clock would read another hour.
    expect(body.slice(11, 13)).not.toBe(String(wallClockIn(after, 'America/Sao_Paulo').hour).padStart(2, '0'));
  });
});

describe('due dates are calendar dates', () => {
  it('stores and answers 2026-11-01 as that day, whatever the zone; an instant is read in the company zone; an impossible day is 400', async () => {
    const company = await t.factories.buildCompany();
    const put = (dueDate: unknown) => t.request(superToken, 'PUT', `/companies/${company.id}`, { dueDate });

    const saved = await put('2026-11-01');
    expect(saved.statusCode).toBe(200);
    expect(saved.json().dueDate).toBe('2026-11-01');
    expect(await storedDueDate(company.id)).toBe('2026-11-01');
    expect((await t.request(superToken, 'GET', `/companies/${company.id}`)).json().dueDate).toBe('2026-11-01');

    // An older client's midnight UTC is the date it was written from.
    expect((await put('2026-12-01T00:00:00.000Z')).json().dueDate).toBe('2026-12-01');
    // 01:09 UTC on 2 Nov is still 1 Nov in São Paulo, already 2 Nov in Tokyo.
    expect((await put('2026-11-02T01:09:00Z')).json().dueDate).toBe('2026-11-01');
    await setZone(company.id, 'Asia/Tokyo');
    expect((await put('2026-11-02T01:09:00Z')).json().dueDate).toBe('2026-11-02');

    const refused = await put('2026-02-30');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { dueDate: [expect.any(String)] } });
    expect(await storedDueDate(company.id)).toBe('2026-11-02');
  });

  it('a company works through its due day in its own zone', () => {
    const saoPaulo = { dueDate: '2026-11-01', timezone: 'America/Sao_Paulo' };
    expect(isCompanyExpired(saoPaulo, new Date('2026-11-02T02:59:59Z'))).toBe(false); // 23:59:59 on 1 Nov there
    expect(isCompanyExpired(saoPaulo, new Date('2026-11-02T03:00:00Z'))).toBe(true);
    expect(companyExpiresAt(saoPaulo)?.toISOString()).toBe('2026-11-02T03:00:00.000Z');
    const tokyo = { dueDate: '2026-11-01', timezone: 'Asia/Tokyo' };
    expect(isCompanyExpired(tokyo, new Date('2026-11-01T14:59:59Z'))).toBe(false);
    expect(isCompanyExpired(tokyo, new Date('2026-11-01T15:00:00Z'))).toBe(true);
    expect(isCompanyExpired({ dueDate: null, timezone: 'UTC' })).toBe(false);
  });

  it("the invoice job counts its horizon from each company's today; an invoice is expired after its day there", async () => {
    // 16:00 UTC on 1 Nov: 13:00 on 1 Nov in São Paulo, 01:00 on 2 Nov in Tokyo.
    const now = new Date('2026-11-01T16:00:00Z');
    const saoPaulo = await t.factories.buildCompany({ plan: { valueCents: 9900 }, dueDate: '2026-11-12' });
    const tokyo = await t.factories.buildCompany({ plan: { valueCents: 9900 }, dueDate: '2026-11-12' });
    await setZone(tokyo.id, 'Asia/Tokyo');
    const made = await createDueInvoices(t.database.db, { now, daysBefore: 10 });
    const ids = made.map((m) => m.companyId);
    expect(ids).toContain(tokyo.id);
    expect(ids).not.toContain(saoPaulo.id);
    const [invoice] = await t.database.db.select().from(invoices).where(eq(invoices.companyId, tokyo.id));
    expect(invoice?.dueDate).toBe('2026-11-12');
    expect(presentInvoice(invoice!, 'Asia/Tokyo', new Date('2026-11-12T14:59:00Z'))).toMatchObject({ dueDate: '2026-11-12', status: 'open' });
    expect(presentInvoice(invoice!, 'Asia/Tokyo', new Date('2026-11-12T15:00:00Z')).status).toBe('expired');
    expect(presentInvoice(invoice!, 'America/Sao_Paulo', new Date('2026-11-12T15:00:00Z')).status).toBe('open');
    expect(dayIn(now, 'Asia/Tokyo')).toBe('2026-11-02');
  });
});
