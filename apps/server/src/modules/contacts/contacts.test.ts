import { VALIDATION_MESSAGES } from '@atende/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contacts } from '../../platform/db/schema.js';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { longestEventLoopBlock } from '../../test/event-loop.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { multipart } from '../../test/multipart.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { buildXlsx } from '../../test/xlsx.js';
import { inTenant } from '../../platform/db/tenant.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let adminToken: string;
let agent: BuiltUser;
let agentToken: string;

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agent = await t.factories.buildUser(company.id);
  agentToken = (await agent.login()).token;
});
afterAll(() => t.close());

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('creating and editing contacts', () => {
  it('creates a contact with extra info; the number keeps its digits only', async () => {
    const response = await t.request(agentToken, 'POST', '/contacts', {
      name: 'Ana Souza',
      number: '+55 (11) 91234-0001',
      email: 'Ana@Example.com',
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
    expect(response.statusCode).toBe(201);
    const contact = response.json();
    expect(contact).toEqual({
      id: expect.any(Number),
      name: 'Ana Souza',
      number: '5511912340001',
      email: 'ana@example.com',
      profilePicUrl: '',
      isGroup: false,
      whatsappId: null,
      extraInfo: [{ id: expect.any(Number), name: 'CPF', value: '123' }],
      birthday: null,
      disableBot: false,
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const shown = await t.request(agentToken, 'GET', `/contacts/${contact.id}`);
    expect(shown.json()).toMatchObject({ name: 'Ana Souza', extraInfo: [{ name: 'CPF', value: '123' }] });
  });

  it('answers a number the company already has with that contact, unchanged (200 alreadyExists, as whaticket v6)', async () => {
    const existing = await sd.buildContact(company.id, { number: '5511912340002', name: 'Original' });
    const response = await t.request(agentToken, 'POST', '/contacts', { name: 'Copy', number: '5511912340002', email: 'copy@example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ alreadyExists: true, existingContact: { id: existing.id, name: 'Original', number: '5511912340002' } });
    expect((await t.request(agentToken, 'GET', `/contacts/${existing.id}`)).json()).toMatchObject({ name: 'Original', email: '' });
    // Another company may have the same number.
    const other = await t.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    expect((await t.request(otherToken, 'POST', '/contacts', { name: 'Copy', number: '5511912340002' })).statusCode).toBe(201);
  });

  it("keeps whaticket v6's birthday, chatbot switch and active flag; refuses an impossible birthday", async () => {
    const created = await t.request(agentToken, 'POST', '/contacts', { name: 'Aniversariante', number: '5511912345678', birthday: '1990-05-17', disableBot: true, active: false });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ birthday: '1990-05-17', disableBot: true, active: false });
    const id = created.json().id as number;
    const cleared = await t.request(agentToken, 'PUT', `/contacts/${id}`, { birthday: '', disableBot: 'false' });
    expect(cleared.json()).toMatchObject({ birthday: null, disableBot: false, active: false });
    for (const birthday of ['2023-02-30', '1850-01-01', 'ontem']) {
      const refused = await t.request(agentToken, 'PUT', `/contacts/${id}`, { birthday });
      expect(refused.statusCode, birthday).toBe(400);
      expect(JSON.stringify(refused.json()), birthday).toContain('birthday');
    }
  });

  it('two racing creates of one number: exactly one wins', async () => {
    const body = { name: 'Racer', number: '5511912340003' };
    const answers = await Promise.all([1, 2, 3].map(() => t.request(agentToken, 'POST', '/contacts', body)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
  });

  it('validates name, number and email as the contact modal does', async () => {
    const response = await t.request(agentToken, 'POST', '/contacts', { name: 'A', number: '123', email: 'not-an-email' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ name: ['Too Short!'], number: [VALIDATION_MESSAGES['validation.phoneTooShort']], email: ['Invalid email'] });
  });

  it('stores every number through the one normaliser: the country code added when missing, formatting dropped', async () => {
    const written = { '(11) 91234-1002': '5511912341002', '+55 (11) 91234-1003': '5511912341003', '11912341004': '5511912341004', '5511912341005': '5511912341005', '+1 415 555 2671': '14155552671' };
    for (const [number, stored] of Object.entries(written)) {
      const created = await t.request(agentToken, 'POST', '/contacts', { name: `Normal ${stored}`, number });
      expect(created.statusCode, number).toBe(201);
      expect(created.json().number, number).toBe(stored);
    }
    // Written without and with its country code, one number is one contact.
    const again = await t.request(agentToken, 'POST', '/contacts', { name: 'De Novo', number: '+55 11 91234-1002' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ alreadyExists: true, existingContact: { number: '5511912341002' } });
  });

  it('refuses a number the normaliser cannot make valid: 400 ERR_VALIDATION naming the number field, on create and edit', async () => {
    for (const [number, key] of [
      ['abc', 'validation.invalidPhoneNumber'],
      ['+1 555', 'validation.phoneTooShort'],
      ['(11) 81234-0002', 'validation.invalidPhoneNumber'],
      ['+999 1234 5678', 'validation.phoneUnknownCountry'],
    ] as const) {
      const response = await t.request(agentToken, 'POST', '/contacts', { name: 'Número Ruim', number });
      expect(response.statusCode, number).toBe(400);
      expect(response.json(), number).toMatchObject({ error: 'ERR_VALIDATION', fields: { number: [VALIDATION_MESSAGES[key]] } });
    }
    const contact = await sd.buildContact(company.id);
    const edit = await t.request(agentToken, 'PUT', `/contacts/${contact.id}`, { name: 'Outro Nome', number: '91234-0002' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { number: [VALIDATION_MESSAGES['validation.invalidPhoneNumber']] } });
    expect((await t.request(agentToken, 'GET', `/contacts/${contact.id}`)).json()).toMatchObject({ name: contact.name, number: contact.number });
    const fixed = await t.request(agentToken, 'PUT', `/contacts/${contact.id}`, { number: '(11) 91234-0099' });
    expect(fixed.json().number).toBe('5511912340099');
  });

  it('an edit that sends back a group id or a number stored before the rule keeps it; a new number is normalised', async () => {
    const group = await sd.buildContact(company.id, { name: 'Grupo Vendas', number: '120363025246125888', isGroup: true });
    const renamed = await t.request(agentToken, 'PUT', `/contacts/${group.id}`, { name: 'Grupo Vendas SP', number: '120363025246125888', email: '' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Grupo Vendas SP', number: '120363025246125888', isGroup: true });
    const oldGroup = await sd.buildContact(company.id, { name: 'Grupo Antigo', number: '5511999999999-1600000000', isGroup: true });
    expect((await t.request(agentToken, 'PUT', `/contacts/${oldGroup.id}`, { name: 'Grupo Antigo 2', number: '5511999999999-1600000000' })).json().number).toBe('5511999999999-1600000000');
    const legacy = await sd.buildContact(company.id, { name: 'Sem DDI', number: '11912340077' });
    expect((await t.request(agentToken, 'PUT', `/contacts/${legacy.id}`, { name: 'Sem DDI Ainda', number: '11912340077' })).json().number).toBe('11912340077');
    expect((await t.request(agentToken, 'PUT', `/contacts/${legacy.id}`, { number: '(11) 91234-0078' })).json().number).toBe('5511912340078');
  });

  it('PUT changes only what is sent, replaces extra info as a whole, and refuses another contact’s number', async () => {
    const contact = await sd.buildContact(company.id, { name: 'Bruno', email: 'bruno@example.com', extraInfo: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] });
    const renamed = await t.request(agentToken, 'PUT', `/contacts/${contact.id}`, { name: 'Bruno Lima', extraInfo: [{ name: 'C', value: '3' }] });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Bruno Lima', email: 'bruno@example.com', number: contact.number });
    expect(renamed.json().extraInfo.map((e: { name: string }) => e.name)).toEqual(['C']);

    const sameNumber = await t.request(agentToken, 'PUT', `/contacts/${contact.id}`, { number: contact.number });
    expect(sameNumber.statusCode).toBe(200);
    const taken = await sd.buildContact(company.id);
    const clash = await t.request(agentToken, 'PUT', `/contacts/${contact.id}`, { number: taken.number });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('ERR_DUPLICATED_CONTACT');
  });

  it("announces a new contact to the company as a 'create'", async () => {
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    try {
      const created = await t.request(agentToken, 'POST', '/contacts', { name: 'Nova Pessoa', number: '5511955550101' });
      expect(created.statusCode).toBe(201);
      await settle();
      const payloads = spy.mock.calls.filter(([, , entity]) => entity === 'contact').map(([, , , payload]) => payload);
      expect(payloads).toContainEqual({ action: 'create', contact: expect.objectContaining({ id: created.json().id, name: 'Nova Pessoa' }) });
      expect(payloads).not.toContainEqual(expect.objectContaining({ action: 'update' }));
    } finally {
      spy.mockRestore();
    }
  });

  it('tells the company and the lists showing its tickets when a contact is renamed', async () => {
    const contact = await sd.buildContact(company.id, { name: 'Carla' });
    const ticket = await sd.buildTicket(company.id, { contactId: contact.id, status: 'open', userId: agent.id });
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    try {
      await t.request(agentToken, 'PUT', `/contacts/${contact.id}`, { name: 'Carla Dias' });
      await settle();
      const calls = spy.mock.calls.map(([companyId, rooms, entity, payload]) => ({ companyId, rooms, entity, payload }));
      expect(calls).toContainEqual({
        companyId: company.id,
        rooms: [`company:${company.id}`],
        entity: 'contact',
        payload: { action: 'update', contact: expect.objectContaining({ id: contact.id, name: 'Carla Dias' }) },
      });
      const ticketEvent = calls.find((c) => c.entity === 'ticket');
      expect(ticketEvent?.payload).toMatchObject({ action: 'update', ticket: { id: ticket.id, contact: { name: 'Carla Dias' } } });
      expect(ticketEvent?.rooms).toContain(`company:${company.id}:user:${agent.id}`);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('listing contacts', () => {
  let listCompany: BuiltCompany;
  let token: string;

  beforeAll(async () => {
    listCompany = await t.factories.buildCompany();
    token = (await listCompany.admin.login()).token;
    for (let i = 0; i < 25; i += 1) {
      await sd.buildContact(listCompany.id, { name: `Cliente ${String(i).padStart(2, '0')}`, number: `55219000000${String(i).padStart(2, '0')}` });
    }
    await sd.buildContact(listCompany.id, { name: 'Maria Oliveira', number: '5531988887777', email: 'maria.o@empresa.com.br' });
    await sd.buildContact(listCompany.id, { name: 'zeca', number: '5531977776666', email: 'contato@zeca.dev' });
  });

  it('pages by 20 in name order, with count and an exact hasMore', async () => {
    const first = (await t.request(token, 'GET', '/contacts?searchParam=cliente&pageNumber=1')).json();
    expect(first.contacts).toHaveLength(20);
    expect(first).toMatchObject({ hasMore: true, count: 25 });
    expect(first.contacts[0].name).toBe('Cliente 00');
    const second = (await t.request(token, 'GET', '/contacts?searchParam=cliente&pageNumber=2')).json();
    expect(second.contacts.map((c: { name: string }) => c.name)).toEqual(['Cliente 20', 'Cliente 21', 'Cliente 22', 'Cliente 23', 'Cliente 24']);
    expect(second).toMatchObject({ hasMore: false, count: 25 });
    // Case-insensitive name order: 'zeca' sorts after 'Maria'.
    const all = (await t.request(token, 'GET', '/contacts?pageNumber=2')).json();
    expect(all.contacts.map((c: { name: string }) => c.name).slice(-2)).toEqual(['Maria Oliveira', 'zeca']);
  });

  it('searches name, number and email, whatever the case', async () => {
    const names = async (search: string) =>
      (await t.request(token, 'GET', `/contacts?searchParam=${encodeURIComponent(search)}`)).json().contacts.map((c: { name: string }) => c.name);
    expect(await names('MARIA oli')).toEqual(['Maria Oliveira']);
    expect(await names('98888')).toEqual(['Maria Oliveira']);
    expect(await names('+55 31 97777')).toEqual(['zeca']);
    expect(await names('ZECA.DEV')).toEqual(['zeca']);
    expect(await names('empresa.com')).toEqual(['Maria Oliveira']);
    expect(await names('100%')).toEqual([]);
  });

  it('filters by creation day in the company’s time zone', async () => {
    const old = await sd.buildContact(listCompany.id, { name: 'Antigo', createdAt: new Date('2024-03-10T02:00:00Z') });
    // 02:00 UTC is 23:00 of the 9th in São Paulo.
    const onDay = (await t.request(token, 'GET', '/contacts?date=2024-03-09')).json();
    expect(onDay.contacts.map((c: { id: number }) => c.id)).toEqual([old.id]);
    expect((await t.request(token, 'GET', '/contacts?date=2024-03-10')).json().contacts).toEqual([]);
    const range = (await t.request(token, 'GET', '/contacts?dateStart=2024-03-01&dateEnd=2024-03-31')).json();
    expect(range).toMatchObject({ count: 1, hasMore: false });
    expect((await t.request(token, 'GET', '/contacts?date=yesterday')).statusCode).toBe(400);
  });

  it('loads extra info for a whole page', async () => {
    await sd.buildContact(listCompany.id, { name: 'Com Extra', extraInfo: [{ name: 'Plano', value: 'Ouro' }] });
    const page = (await t.request(token, 'GET', '/contacts?searchParam=com%20extra')).json();
    expect(page.contacts[0].extraInfo).toEqual([{ id: expect.any(Number), name: 'Plano', value: 'Ouro' }]);
  });

  it('GET /contacts/list answers every contact for pickers, ignoring companyId', async () => {
    const list = (await t.request(token, 'GET', `/contacts/list?companyId=${company.id}`)).json();
    expect(list.length).toBeGreaterThanOrEqual(27);
    expect(Object.keys(list[0]).sort()).toEqual(['email', 'id', 'name', 'number']);
    expect(list.some((c: { name: string }) => c.name === 'Ana Souza')).toBe(false);
  });
});

describe('deleting contacts', () => {
  it('needs contacts-page:deleteContact: a user is refused, an admin deletes it and its tickets', async () => {
    const contact = await sd.buildContact(company.id);
    const ticket = await sd.buildTicket(company.id, { contactId: contact.id });
    const refused = await t.request(agentToken, 'DELETE', `/contacts/${contact.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    try {
      expect((await t.request(adminToken, 'DELETE', `/contacts/${contact.id}`)).statusCode).toBe(200);
      await settle();
      const payloads = spy.mock.calls.map(([, , entity, payload]) => ({ entity, payload }));
      expect(payloads).toContainEqual({ entity: 'contact', payload: { action: 'delete', contactId: contact.id } });
      expect(payloads).toContainEqual({ entity: 'ticket', payload: { action: 'delete', ticketId: ticket.id } });
    } finally {
      spy.mockRestore();
    }
    expect((await t.request(adminToken, 'GET', `/contacts/${contact.id}`)).statusCode).toBe(404);
    expect((await t.request(adminToken, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(404);
  });
});

describe('POST /contacts/upload', () => {
  it('creates the valid rows and reports the others in errorBag', async () => {
    const existing = await sd.buildContact(company.id, { name: 'Já Existe' });
    const rows = [
      { Nome: ' Pedro ', Número: '(21) 98888-0001', 'E-mail': 'pedro@example.com' },
      { name: 'Paula', phone: 5521988880002 },
      { ' NOME ': 'Já Existe de Novo', numero: existing.number },
      { Name: 'X', Number: '5521988880003' },
      { nome: 'Sem Número' },
      { nome: 'Email Ruim', telefone: '5521988880004', email: 'ruim@' },
      { Nome: 'Pedro Repetido', Numero: '+55 21 98888 0001' },
      { nome: 'Número Curto', numero: '98888-0005' },
      { nome: 'Sem Nono Dígito', numero: '(21) 8888-0006' },
      { nome: '', numero: '' },
    ];
    const response = await t.request(agentToken, 'POST', '/contacts/upload', rows);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result.newContacts.map((c: { contactName: string }) => c.contactName).sort()).toEqual(['Paula', 'Pedro', 'Sem Nono Dígito']);
    expect(result.newContacts[0]).toEqual({ contactId: expect.any(Number), contactName: expect.any(String) });
    const errors = Object.fromEntries(result.errorBag.map((e: { contactName: string; error: { message: string } }) => [e.contactName, e.error.message]));
    expect(errors).toEqual({
      'Já Existe de Novo': 'ERR_DUPLICATED_CONTACT',
      X: 'The name must have 2 to 50 characters',
      'Sem Número': 'The number is missing',
      'Email Ruim': 'The email "ruim@" is not valid',
      'Pedro Repetido': 'ERR_DUPLICATED_CONTACT',
      'Número Curto': 'The number "98888-0005" is not a valid phone number',
    });
    // Each invalid column also carries the validation key the web translates.
    const fields = Object.fromEntries(result.errorBag.map((e: { contactName: string; error: { fields?: object } }) => [e.contactName, e.error.fields]));
    expect(fields).toMatchObject({
      X: { name: 'validation.tooShort' },
      'Sem Número': { number: 'validation.required' },
      'Email Ruim': { email: 'validation.invalidEmail' },
      'Número Curto': { number: 'validation.invalidPhoneNumber' },
    });
    // Numbers without the country code get the company's (55), like the rest of the sheet.
    const pedro = (await t.request(agentToken, 'GET', '/contacts?searchParam=pedro')).json().contacts;
    expect(pedro).toHaveLength(1);
    expect(pedro[0]).toMatchObject({ name: 'Pedro', number: '5521988880001', email: 'pedro@example.com' });
    // A mobile without its ninth digit is still a WhatsApp id: kept as written.
    expect((await t.request(agentToken, 'GET', '/contacts?searchParam=nono')).json().contacts[0]).toMatchObject({ number: '552188880006' });
  });

  it("stores an import's '(11) 91234-0002' as 5511912340002 next to the rows that carry 55, and refuses a row it cannot make valid with its reason", async () => {
    const token = (await (await t.factories.buildCompany()).admin.login()).token;
    const rows = [
      { nome: 'Importada Sem DDI', numero: '(11) 91234-0002' },
      { nome: 'Importada Com DDI', numero: '5511912340003' },
      { nome: 'Importada Ruim', numero: '123' },
    ];
    const result = (await t.request(token, 'POST', '/contacts/upload', rows)).json();
    expect(result.newContacts.map((c: { contactName: string }) => c.contactName).sort()).toEqual(['Importada Com DDI', 'Importada Sem DDI']);
    expect(result.errorBag).toEqual([
      {
        contactName: 'Importada Ruim',
        error: { code: 'ERR_VALIDATION', message: 'The number "123" has too few digits for a phone number (write the area code)', fields: { number: 'validation.phoneTooShort' } },
      },
    ]);
    const imported = (await t.request(token, 'GET', '/contacts?searchParam=importada')).json().contacts;
    expect(Object.fromEntries(imported.map((c: { name: string; number: string }) => [c.name, c.number]))).toEqual({ 'Importada Sem DDI': '5511912340002', 'Importada Com DDI': '5511912340003' });
  });

  it('imports a 1 200-row sheet and refuses more than 10 000 rows', async () => {
    const bulk = await t.factories.buildCompany();
    const token = (await bulk.admin.login()).token;
    const rows = Array.from({ length: 1200 }, (_, i) => ({ nome: `Lote ${i}`, numero: `55479${String(i).padStart(8, '0')}` }));
    const result = (await t.request(token, 'POST', '/contacts/upload', rows)).json();
    expect(result.newContacts).toHaveLength(1200);
    expect(result.errorBag).toEqual([]);
    const tooMany = Array.from({ length: 10_001 }, () => ({ nome: 'x' }));
    expect((await t.request(token, 'POST', '/contacts/upload', tooMany)).statusCode).toBe(400);
  });
});

describe('POST /contacts/upload bounds', () => {
  const post = (token: string, payload: string) =>
    t.app.inject({ method: 'POST', url: '/contacts/upload', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload });

  it('refuses 8 MiB of empty rows from their shape, before parsing them: the event loop is held far less than parsing would', async () => {
    const token = (await (await t.factories.buildCompany()).admin.login()).token;
    // 2.8 million objects for JSON.parse to build: half a second of a blocked event loop on a quiet machine.
    const emptyRows = `[${Array.from({ length: 2_790_000 }, () => '{}').join(',')}]`;
    // What parsing them costs here and now (a busy machine makes both figures grow alike).
    const parseStarted = performance.now();
    JSON.parse(emptyRows);
    const parseMs = performance.now() - parseStarted;
    const { result: answer, longestBlockMs } = await longestEventLoopBlock(() => post(token, emptyRows));
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { _: ['Too Long!'] } });
    expect(longestBlockMs, `parsing takes ${Math.round(parseMs)} ms`).toBeLessThan(parseMs / 2);
  });

  it('refuses more than 100,000 cells, and rows holding objects, with a validation error', async () => {
    const token = (await (await t.factories.buildCompany()).admin.login()).token;
    const wide = Object.fromEntries(Array.from({ length: 20_001 }, (_, i) => [`c${i}`, 1]));
    const tooWide = await post(token, JSON.stringify([wide, wide, wide, wide, wide]));
    expect(tooWide.statusCode).toBe(400);
    expect(tooWide.json()).toMatchObject({ error: 'ERR_VALIDATION', message: 'At most 100000 cells per upload' });
    const nested = await post(token, JSON.stringify([{ nome: 'Ana', numero: [{ deep: [1] }] }]));
    expect(nested.statusCode).toBe(400);
    expect(nested.json().error).toBe('ERR_VALIDATION');
    const fine = await post(token, JSON.stringify([{ nome: 'Ana "A" \\ Souza', numero: '5511911110000' }]));
    expect(fine.json().newContacts).toHaveLength(1);
  });
});

describe('POST /contacts/import', () => {
  it('brings back the numbers a connected sandbox phone talked to, a deleted contact included', async () => {
    const importing = await t.factories.buildCompany();
    const token = (await importing.admin.login()).token;
    const created = await t.request(token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    const sandboxId = created.json().id as number;
    // A customer writes in; an agent accepts and answers (the reply lands on the simulated phone).
    const { ticketId } = (await t.request(token, 'POST', `/sandbox/${sandboxId}/inbound`, { from: '5511955550001', name: 'Rita', body: 'Oi' })).json();
    expect((await t.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
    expect((await t.request(token, 'POST', `/messages/${ticketId}`, { body: 'Olá Rita' })).statusCode).toBe(201);
    await t.request(token, 'POST', `/sandbox/${sandboxId}/inbound`, { from: '5511955550002', name: 'Sergio', body: 'Bom dia' });
    // A disconnected connection's phone is not read.
    const offline = await sd.buildConnection(importing.id, { status: 'DISCONNECTED', isDefault: false });
    await t.database.db.insert(contacts).values({ companyId: importing.id, name: 'Outro', number: '5511955550009', whatsappId: offline.id });

    const rita = await t.database.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(inTenant(contacts, { companyId: importing.id }, eq(contacts.number, '5511955550001')));
    expect((await t.request(token, 'DELETE', `/contacts/${rita[0]?.id}`)).statusCode).toBe(200);

    const response = await t.request(token, 'POST', '/contacts/import');
    expect(response.statusCode).toBe(200);
    // Sergio still exists: merged silently. Rita is back, named by her number (the phone kept no name).
    expect(response.json()).toEqual({ newContacts: [{ contactId: expect.any(Number), contactName: '5511955550001' }], errorBag: [] });
    const back = (await t.request(token, 'GET', '/contacts?searchParam=5511955550001')).json().contacts[0];
    expect(back).toMatchObject({ number: '5511955550001', whatsappId: sandboxId });
    expect((await t.request(token, 'POST', '/contacts/import')).json()).toEqual({ newContacts: [], errorBag: [] });
  });
});

describe('POST /contacts/upload as whaticket v6 sends it (the spreadsheet in `file`)', () => {
  const sendFile = (token: string, fileName: string, data: Buffer) => {
    const form = multipart(fileName, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data);
    return t.app.inject({ method: 'POST', url: '/contacts/upload', headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
  };

  it('reads the first sheet by its titles, as the JSON rows are read', async () => {
    const sheet = buildXlsx([
      ['Nome', 'Número', 'E-mail'],
      ['Lúcia Planilha', '(21) 97777-0001', 'lucia@example.com'],
      ['X', '5521977770002', ''],
    ]);
    const response = await sendFile(agentToken, 'contatos.xlsx', sheet);
    expect(response.statusCode).toBe(200);
    const result = response.json<{ newContacts: { contactName: string }[]; errorBag: { contactName: string }[] }>();
    expect(result.newContacts.map((c) => c.contactName)).toEqual(['Lúcia Planilha']);
    expect(result.errorBag.map((e) => e.contactName)).toEqual(['X']);
    expect((await t.request(agentToken, 'GET', '/contacts?searchParam=planilha')).json().contacts[0]).toMatchObject({ number: '5521977770001', email: 'lucia@example.com' });
  });

  it('refuses what is no spreadsheet and a request with neither rows nor file (400 with the field)', async () => {
    const image = await sendFile(agentToken, 'foto.png', Buffer.from('not a sheet'));
    expect(image.json()).toMatchObject({ error: 'ERR_INVALID_FILE_TYPE', fields: { file: expect.any(Array) } });
    expect((await sendFile(agentToken, 'quebrada.xlsx', Buffer.from('not a zip at all'))).json()).toMatchObject({ error: 'ERR_INVALID_SPREADSHEET' });
    const empty = await t.app.inject({ method: 'POST', url: '/contacts/upload', headers: { authorization: `Bearer ${agentToken}` } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.file).toBeDefined();
  });
});
