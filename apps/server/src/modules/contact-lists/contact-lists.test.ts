import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import { allowedBlockMs, longestEventLoopBlock } from '../../test/event-loop.js';
import { multipart } from '../../test/multipart.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { buildXls } from '../../test/xls.js';
import { buildXlsx, buildXlsxBomb } from '../../test/xlsx.js';

/*
 * Contact lists and items (spec part 2 §2.8, §3, §5, §7): campaign area (admins,
 * plan flag useCampaigns), spreadsheet upload keeping good rows and reporting bad
 * ones by line, numbers checked on WhatsApp by a job through the connection.
 */

let t: ChannelTestContext;
let adminToken: string;
let agentToken: string;
let otherToken: string;
let noPlanToken: string;
let connection: WhatsappRow;

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function spreadsheet(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function upload(token: string, listId: number, fileName: string, mimeType: string, data: Buffer) {
  const body = multipart(fileName, mimeType, data);
  return t.app.inject({ method: 'POST', url: `/contact-lists/${listId}/upload`, headers: { authorization: `Bearer ${token}`, ...body.headers }, payload: body.payload });
}

beforeAll(async () => {
  t = await createChannelTestContext({ jobs: true });
  const sd = createServiceDeskFactories(t.database.db);
  const company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(company.id, { profile: 'user' })).login()).token;
  connection = await sd.buildConnection(company.id, { name: 'Sandbox', isDefault: true });
  otherToken = (await (await t.factories.buildCompany()).admin.login()).token;
  noPlanToken = (await (await t.factories.buildCompany({ plan: { useCampaigns: false } })).admin.login()).token;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function newList(name = 'Clientes VIP') {
  const created = await t.request(adminToken, 'POST', '/contact-lists', { name });
  expect(created.statusCode).toBe(201);
  return created.json() as { id: number; name: string; contactsCount: number };
}

describe('contact lists', () => {
  it('an admin creates, finds, renames and deletes a list; the count follows its items', async () => {
    const list = await newList();
    expect(list).toMatchObject({ name: 'Clientes VIP', contactsCount: 0 });
    const item = await t.request(adminToken, 'POST', '/contact-list-items', { contactListId: list.id, name: 'Ana Souza', number: '+55 (11) 98765-4321', email: 'ana@example.com' });
    expect(item.statusCode).toBe(201);
    expect(item.json()).toMatchObject({ name: 'Ana Souza', number: '5511987654321', email: 'ana@example.com', contactListId: list.id });
    const page = await t.request(adminToken, 'GET', '/contact-lists/?searchParam=vip');
    expect(page.json().records).toEqual([expect.objectContaining({ id: list.id, contactsCount: 1 })]);
    expect((await t.request(adminToken, 'GET', '/contact-lists/list')).json().map((l: { id: number }) => l.id)).toContain(list.id);
    expect((await t.request(adminToken, 'PUT', `/contact-lists/${list.id}`, { name: 'Clientes Ouro' })).json()).toMatchObject({ name: 'Clientes Ouro', contactsCount: 1 });
    const items = await t.request(adminToken, 'GET', `/contact-list-items?contactListId=${list.id}&searchParam=ana`);
    expect(items.json()).toMatchObject({ hasMore: false, contacts: [expect.objectContaining({ name: 'Ana Souza' })] });
    expect((await t.request(adminToken, 'DELETE', `/contact-lists/${list.id}`)).statusCode).toBe(200);
    expect((await t.request(adminToken, 'GET', `/contact-list-items/${item.json().id}`)).statusCode).toBe(404);
  });

  it("whaticket v6's /contact-list-items/list: every item of a list by name, or of the company; another company's list is not found", async () => {
    const list = await newList('Lista inteira');
    const second = await newList('Outra lista');
    for (const [listId, name, number] of [
      [list.id, 'Zeca', '5511987650001'],
      [list.id, 'Bia', '5511987650002'],
      [second.id, 'Caio', '5511987650003'],
    ] as const) {
      expect((await t.request(adminToken, 'POST', '/contact-list-items', { contactListId: listId, name, number })).statusCode).toBe(201);
    }
    const one = await t.request(adminToken, 'GET', `/contact-list-items/list?contactListId=${list.id}`);
    expect(one.json().map((item: { name: string }) => item.name)).toEqual(['Bia', 'Zeca']);
    const all = (await t.request(adminToken, 'GET', '/contact-list-items/list')).json().map((item: { name: string }) => item.name);
    expect(all).toEqual(expect.arrayContaining(['Bia', 'Caio', 'Zeca']));
    expect((await t.request(otherToken, 'GET', `/contact-list-items/list?contactListId=${list.id}`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'GET', '/contact-list-items/list')).json()).toEqual([]);
    expect((await t.request(adminToken, 'GET', '/contact-list-items/list?contactListId=x')).statusCode).toBe(400);
  });

  it('validates names, numbers and e-mails with field messages, and refuses a number twice in a list', async () => {
    expect((await t.request(adminToken, 'POST', '/contact-lists', { name: 'A' })).json().fields).toHaveProperty('name');
    const list = await newList('Validação');
    const bad = await t.request(adminToken, 'POST', '/contact-list-items', { contactListId: list.id, name: 'B', number: '123', email: 'not-mail' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['email', 'name', 'number']);
    expect(bad.json().fields.number).toEqual(['Too few digits for a phone number: include the area code']);
    const body = { contactListId: list.id, name: 'Bruno Lima', number: '5521912345678' };
    expect((await t.request(adminToken, 'POST', '/contact-list-items', body)).statusCode).toBe(201);
    const again = await t.request(adminToken, 'POST', '/contact-list-items', body);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_DUPLICATED_LIST_ITEM');
    // The same number without its country code is the same item.
    expect((await t.request(adminToken, 'POST', '/contact-list-items', { ...body, number: '(21) 91234-5678' })).statusCode).toBe(409);
  });

  it("an item's number goes through the one normaliser on create and edit; the stored number sent back is kept", async () => {
    const list = await newList('Normalizada');
    const created = await t.request(adminToken, 'POST', '/contact-list-items', { contactListId: list.id, name: 'Lia Campos', number: '(11) 91234-0002' });
    expect(created.json().number).toBe('5511912340002');
    const item = created.json() as { id: number };
    const bad = await t.request(adminToken, 'PUT', `/contact-list-items/${item.id}`, { number: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { number: [expect.stringContaining('Not a valid phone number')] } });
    expect((await t.request(adminToken, 'PUT', `/contact-list-items/${item.id}`, { name: 'Lia C.', number: '5511912340002' })).json()).toMatchObject({ name: 'Lia C.', number: '5511912340002' });
    expect((await t.request(adminToken, 'PUT', `/contact-list-items/${item.id}`, { number: '11 91234-0003' })).json()).toMatchObject({ number: '5511912340003', isWhatsappValid: null });
  });

  it('agents, other companies and plans without campaigns are refused', async () => {
    const list = await newList('Privada');
    const item = (await t.request(adminToken, 'POST', '/contact-list-items', { contactListId: list.id, name: 'Caio Reis', number: '5531955554444' })).json();
    expect((await t.request(agentToken, 'GET', '/contact-lists')).statusCode).toBe(403);
    expect((await t.request(noPlanToken, 'GET', '/contact-lists')).statusCode).toBe(403);
    expect((await t.request(noPlanToken, 'POST', '/contact-lists', { name: 'Sem plano' })).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/contact-lists/${list.id}`, undefined],
      ['PUT', `/contact-lists/${list.id}`, { name: 'Alheia' }],
      ['DELETE', `/contact-lists/${list.id}`, undefined],
      ['GET', `/contact-list-items?contactListId=${list.id}`, undefined],
      ['POST', '/contact-list-items', { contactListId: list.id, name: 'Intruso', number: '5511900000000' }],
      ['GET', `/contact-list-items/${item.id}`, undefined],
      ['PUT', `/contact-list-items/${item.id}`, { name: 'Alterado' }],
      ['DELETE', `/contact-list-items/${item.id}`, undefined],
    ] as const) {
      expect((await t.request(otherToken, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await upload(otherToken, list.id, 'lista.xlsx', XLSX_MIME, await spreadsheet([['nome', 'numero'], ['X Y', '5511900001111']]))).statusCode).toBe(404);
    expect((await t.request(adminToken, 'GET', `/contact-list-items/${item.id}`)).json().name).toBe('Caio Reis');
  });
});

describe('spreadsheet upload', () => {
  it('keeps the good rows and reports each bad one by line, then checks the numbers on WhatsApp', async () => {
    const list = await newList('Importada');
    const data = await spreadsheet([
      ['Nome', 'Número', 'E-mail'],
      ['Diana Prado', '(41) 99888-7766', 'diana@example.com'],
      ['E', '5541999990000', ''],
      ['Fábio Nunes', '12', ''],
      ['Gina Alves', '5541977776666', 'gina@'],
      ['Hugo Dias', '+55 41 99555-0000', ''],
      ['Diana de novo', '41998887766', ''],
    ]);
    // The sandbox's "not on WhatsApp" numbers start with 999, which no country has and the normaliser refuses: here Hugo's is.
    const sandbox = t.app.services.channels.providerFor(connection);
    const checkNumber = sandbox.checkNumber.bind(sandbox);
    const check = vi.spyOn(sandbox, 'checkNumber').mockImplementation(async (on, number) => (number === '5541995550000' ? { exists: false, number } : checkNumber(on, number)));
    const answer = await upload(adminToken, list.id, 'contatos.xlsx', XLSX_MIME, data);
    expect(answer.statusCode).toBe(200);
    const result = answer.json();
    expect(result.imported).toBe(2);
    expect(result.errors.map((e: { row: number }) => e.row)).toEqual([3, 4, 5, 7]);
    expect(result.errors[0].fields).toHaveProperty('name');
    expect(result.errors[1]).toMatchObject({ number: '12', fields: { number: 'validation.phoneTooShort' }, message: 'The number "12" has too few digits for a phone number (write the area code)' });
    expect(result.errors[2].fields).toHaveProperty('email');
    // '(41) 99888-7766' and '41998887766' are one number once the country code is added.
    expect(result.errors[3].message).toBe('ERR_DUPLICATED_LIST_ITEM');
    const checked = await waitUntil(async () => {
      const items = (await t.request(adminToken, 'GET', `/contact-list-items?contactListId=${list.id}`)).json().contacts as { name: string; number: string; isWhatsappValid: boolean | null }[];
      return items.every((i) => i.isWhatsappValid !== null) ? items : null;
    }).finally(() => check.mockRestore());
    expect(Object.fromEntries(checked.map((i) => [i.name, [i.number, i.isWhatsappValid]]))).toEqual({ 'Diana Prado': ['5541998887766', true], 'Hugo Dias': ['5541995550000', false] });
  });

  it('refuses files that are not spreadsheets with a clear error and keeps the list as it was', async () => {
    const list = await newList('Intacta');
    const png = await upload(adminToken, list.id, 'foto.png', 'image/png', Buffer.from('89504e47', 'hex'));
    expect(png.statusCode).toBe(400);
    expect(png.json().error).toBe('ERR_INVALID_FILE_TYPE');
    const broken = await upload(adminToken, list.id, 'lista.xlsx', XLSX_MIME, Buffer.from('not a zip at all'));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe('ERR_INVALID_SPREADSHEET');
    expect((await t.request(adminToken, 'GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(0);
  });

  it('reads legacy .xls workbooks the same way', async () => {
    const list = await newList('Legada');
    const data = buildXls([
      ['Nome', 'Número', 'E-mail'],
      ['Iara Melo', 5541977771111, 'iara@example.com'],
      ['Jonas Reis', '12', ''],
      ['Kátia Luz', '(41) 97777-2222', ''],
    ]);
    const answer = await upload(adminToken, list.id, 'contatos.xls', 'application/vnd.ms-excel', data);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ imported: 2, errors: [{ row: 3, name: 'Jonas Reis' }] });
    const items = (await t.request(adminToken, 'GET', `/contact-list-items?contactListId=${list.id}`)).json().contacts as { name: string; number: string }[];
    expect(items.map((i) => [i.name, i.number]).sort()).toEqual([
      ['Iara Melo', '5541977771111'],
      ['Kátia Luz', '5541977772222'],
    ]);
  });

  it('refuses a file over the 16 MB upload limit with 413 and keeps the list as it was', async () => {
    const list = await newList('Enorme');
    const answer = await upload(adminToken, list.id, 'enorme.xlsx', XLSX_MIME, Buffer.alloc(16 * 1024 * 1024 + 1, 1));
    expect(answer.statusCode).toBe(413);
    expect(answer.json().error).toBe('ERR_PAYLOAD_TOO_LARGE');
    expect((await t.request(adminToken, 'GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(0);
  });

  it('refuses a 300,000-row spreadsheet at the 20,000-row cap while the server goes on answering', async () => {
    const list = await newList('Trezentas mil');
    const rows = function* () {
      yield ['nome', 'numero'];
      for (let i = 0; i < 300_000; i += 1) yield [`Pessoa ${i}`, 5511900000000 + i];
    };
    const data = buildXlsx(rows());
    const { result, longestBlockMs, elapsedMs } = await longestEventLoopBlock(async () => {
      const uploading = upload(adminToken, list.id, 'trezentas-mil.xlsx', XLSX_MIME, data);
      // Another request while the file is read: answered, and the event loop is never held long (allowedBlockMs).
      const other = await t.request(adminToken, 'GET', `/contact-lists/${list.id}`);
      return { other, answer: await uploading };
    });
    expect(result.other.statusCode).toBe(200);
    expect(result.answer.statusCode).toBe(400);
    expect(result.answer.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { file: ['validation.tooLong'] } });
    expect(longestBlockMs).toBeLessThan(allowedBlockMs(elapsedMs));
    expect((await t.request(adminToken, 'GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(0);
  });

  it('refuses a zip bomb (a sheet of 512 MiB in 0.5 MB) with ERR_SPREADSHEET_TOO_LARGE', async () => {
    const list = await newList('Bomba');
    const answer = await upload(adminToken, list.id, 'bomba.xlsx', XLSX_MIME, buildXlsxBomb('sheet', 512));
    expect(answer.statusCode).toBe(413);
    expect(answer.json().error).toBe('ERR_SPREADSHEET_TOO_LARGE');
  });

  it('imports 10,000 rows in one upload', async () => {
    const list = await newList('Grande');
    const rows: (string | number)[][] = [['name', 'number']];
    for (let i = 0; i < 10_000; i += 1) rows.push([`Pessoa ${i}`, `55119${String(i).padStart(8, '0')}`]);
    const answer = await upload(adminToken, list.id, 'grande.xlsx', XLSX_MIME, await spreadsheet(rows));
    expect(answer.json()).toMatchObject({ imported: 10_000, errors: [] });
    expect((await t.request(adminToken, 'GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(10_000);
  }, 60_000);
});
