import { eq } from 'drizzle-orm';
import { multipartForm } from '../../test/multipart.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactListItems, contactLists, outboundSends, sandboxOutbox } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';

/*
 * File lists (spec part 2 §2.11, §5, §7): admins name a list and its options,
 * upload a file per option (types and size enforced), and a campaign with the
 * list sends the files after its text.
 */

let t: ChannelTestContext;
let companyId: number;
let adminToken: string;
let agentToken: string;
let otherToken: string;
let whatsappId: number;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** Multipart pairs: optionId then its file. */
function optionUploads(files: { optionId: number; name: string; type: string; data: Buffer }[]) {
  const boundary = `----files${Date.now()}`;
  const parts = files.flatMap((file) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="optionId"\r\n\r\n${file.optionId}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.data,
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(token: string, listId: number, files: Parameters<typeof optionUploads>[0]) {
  const body = optionUploads(files);
  return t.app.inject({ method: 'POST', url: `/files/uploadList/${listId}`, headers: { authorization: `Bearer ${token}`, ...body.headers }, payload: body.payload });
}

beforeAll(async () => {
  t = await createChannelTestContext({ jobs: true, env: { OUTBOUND_SWEEP_SECONDS: '1' } });
  const sd = createServiceDeskFactories(t.database.db);
  const company = await t.factories.buildCompany();
  companyId = company.id;
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(companyId, { profile: 'user' })).login()).token;
  whatsappId = (await sd.buildConnection(companyId, { name: 'Sandbox' })).id;
  otherToken = (await (await t.factories.buildCompany()).admin.login()).token;
  await t.request(adminToken, 'POST', '/campaign-settings', { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('file lists', () => {
  it('an admin creates a list with options, uploads a file per option, renames and removes options', async () => {
    const created = await t.request(adminToken, 'POST', '/files/', { name: 'Catálogo', message: 'Nossos materiais', options: [{ name: 'Tabela de preços' }, { name: 'Foto da loja' }] });
    expect(created.statusCode).toBe(201);
    const list = created.json();
    expect(list.options.map((o: { name: string }) => o.name)).toEqual(['Tabela de preços', 'Foto da loja']);
    const [first, second] = list.options as { id: number }[];
    const uploaded = await upload(adminToken, list.id, [
      { optionId: first!.id, name: 'precos.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 tabela') },
      { optionId: second!.id, name: 'loja.png', type: 'image/png', data: PNG },
    ]);
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json().options).toEqual([
      expect.objectContaining({ name: 'Tabela de preços', path: 'precos.pdf', mediaType: 'application', mediaUrl: expect.stringContaining('signature=') }),
      expect.objectContaining({ name: 'Foto da loja', path: 'loja.png', mediaType: 'image' }),
    ]);
    const edited = await t.request(adminToken, 'PUT', `/files/${list.id}`, { options: [{ id: second!.id, name: 'Fachada' }] });
    expect(edited.json().options).toEqual([expect.objectContaining({ id: second!.id, name: 'Fachada', path: 'loja.png' })]);
    const page = await t.request(adminToken, 'GET', '/files?searchParam=catá');
    expect(page.json()).toMatchObject({ hasMore: false, files: [expect.objectContaining({ id: list.id })] });
    expect((await t.request(adminToken, 'DELETE', `/files/${list.id}`)).statusCode).toBe(200);
    expect((await t.request(adminToken, 'GET', `/files/${list.id}`)).statusCode).toBe(404);
  });

  it("takes the whaticket v6 client's upload form: each file, then its option's name and id (or only its name)", async () => {
    const created = (await t.request(adminToken, 'POST', '/files', { name: 'Catálogo v6', message: 'Segue', options: [{ name: 'Tabela' }, { name: 'Folder' }] })).json();
    const [table, folder] = created.options as { id: number; name: string }[];
    const form = multipartForm({
      fileId: String(created.id),
      typeArch: 'fileList',
      files: { fileName: 'tabela.png', mimeType: 'image/png', data: PNG },
      mediaType: 'image/png',
      name: 'Tabela',
      id: String(table!.id),
    });
    const second = multipartForm({ files: { fileName: 'folder.png', mimeType: 'image/png', data: PNG }, name: 'Folder', id: 'undefined' });
    const headers = (extra: Record<string, string>) => ({ authorization: `Bearer ${adminToken}`, ...extra });
    expect((await t.app.inject({ method: 'POST', url: `/files/uploadList/${created.id}`, headers: headers(form.headers), payload: form.payload })).statusCode).toBe(200);
    const after = await t.app.inject({ method: 'POST', url: `/files/uploadList/${created.id}`, headers: headers(second.headers), payload: second.payload });
    expect(after.statusCode).toBe(200);
    const options = after.json().options as { id: number; name: string; mediaName?: string | null; path?: string | null }[];
    expect(options.find((option) => option.id === table!.id)).toMatchObject({ name: 'Tabela' });
    expect(options.find((option) => option.id === table!.id)?.path).toBeTruthy();
    expect(options.find((option) => option.id === folder!.id)?.path).toBeTruthy();
    const unknown = multipartForm({ files: { fileName: 'x.png', mimeType: 'image/png', data: PNG }, name: 'Nenhuma', id: 'undefined' });
    expect((await t.app.inject({ method: 'POST', url: `/files/uploadList/${created.id}`, headers: headers(unknown.headers), payload: unknown.payload })).statusCode).toBe(400);
  });

  it('validates the dialog rules and refuses files of other types, unknown options, agents and other companies', async () => {
    const short = await t.request(adminToken, 'POST', '/files', { name: 'Ab', message: '' });
    expect(Object.keys(short.json().fields).sort()).toEqual(['message', 'name']);
    const list = (await t.request(adminToken, 'POST', '/files', { name: 'Privada', message: 'Texto', options: [{ name: 'Um' }] })).json();
    const optionId = list.options[0].id as number;
    const script = await upload(adminToken, list.id, [{ optionId, name: 'virus.exe', type: 'application/octet-stream', data: Buffer.from('MZ') }]);
    expect(script.statusCode).toBe(400);
    expect(script.json().error).toBe('ERR_INVALID_FILE_TYPE');
    const huge = await upload(adminToken, list.id, [{ optionId, name: 'enorme.pdf', type: 'application/pdf', data: Buffer.alloc(16 * 1024 * 1024 + 1, 1) }]);
    expect(huge.statusCode).toBe(413);
    expect((await t.request(adminToken, 'GET', `/files/${list.id}`)).json().options[0].path).toBeNull();
    expect((await upload(adminToken, list.id, [{ optionId: optionId + 999, name: 'a.pdf', type: 'application/pdf', data: Buffer.from('%PDF') }])).statusCode).toBe(400);
    expect((await t.request(agentToken, 'GET', '/files')).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/files/${list.id}`, undefined],
      ['PUT', `/files/${list.id}`, { name: 'Alheia' }],
      ['DELETE', `/files/${list.id}`, undefined],
    ] as const) {
      expect((await t.request(otherToken, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await upload(otherToken, list.id, [{ optionId, name: 'a.pdf', type: 'application/pdf', data: Buffer.from('%PDF') }])).statusCode).toBe(404);
    expect((await t.request(otherToken, 'POST', '/campaigns', { name: 'Intrusa', fileListId: list.id })).statusCode).toBe(404);
  });

  it("a campaign with a file list sends the list's files after its text", async () => {
    const files = (await t.request(adminToken, 'POST', '/files', { name: 'Folhetos', message: 'Materiais', options: [{ name: 'Folheto' }] })).json();
    await upload(adminToken, files.id, [{ optionId: files.options[0].id, name: 'folheto.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 folheto') }]);
    const [list] = await t.database.db.insert(contactLists).values({ companyId, name: 'Com arquivos' }).returning();
    await t.database.db.insert(contactListItems).values({ companyId, contactListId: list!.id, name: 'Dora Melo', number: '5511987659999', email: '' });
    const campaign = (
      await t.request(adminToken, 'POST', '/campaigns', { name: 'Com folheto', message1: 'Oi {nome}, segue o folheto.', whatsappId, contactListId: list!.id, fileListId: files.id, scheduledAt: new Date().toISOString() })
    ).json();
    expect(campaign.fileListId).toBe(files.id);
    const [send] = await waitUntil(async () => {
      const rows = await t.database.db.select().from(outboundSends).where(eq(outboundSends.sourceId, campaign.id));
      return rows.length && rows[0]!.state === 'delivered' ? rows : null;
    }, 15_000);
    // The text is kept as a template (filled when it goes out), the files after it.
    expect(send!.items.map((item) => [item.body, item.media?.name ?? null])).toEqual([
      ['Oi {nome}, segue o folheto.', null],
      ['Folheto', 'folheto.pdf'],
    ]);
    const phone = await t.database.db.select({ body: sandboxOutbox.body, media: sandboxOutbox.mediaName }).from(sandboxOutbox).where(eq(sandboxOutbox.number, '5511987659999')).orderBy(sandboxOutbox.id);
    expect(phone.map((message) => [message.body, message.media])).toEqual([
      ['Oi Dora Melo, segue o folheto.', null],
      ['Folheto', 'folheto.pdf'],
    ]);
  });
});
