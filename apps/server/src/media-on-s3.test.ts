import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3MediaStore } from './platform/storage/s3-media-store.js';
import type { BuiltCompany } from './test/factories.js';
import { multipartForm } from './test/multipart.js';
import { startS3Server, type TestS3Server } from './test/s3-server.js';
import { createTestContext, type TestContext } from './test/test-app.js';

/**
 * MEDIA_STORAGE=s3 through the real app on a port, against a local S3-compatible server:
 * files uploaded by an agent and received from a customer land in the bucket under the
 * company's prefix, and come back through the app's own signed URLs with the same bytes;
 * another company's URL or id is refused as on a folder; a DATA_DIR short of space does not
 * refuse a file that goes to the bucket; a bucket that does not answer is a 503 (and /health
 * says so), then works.
 */

let s3: TestS3Server;
let t: TestContext;
let baseUrl: string;
let company: BuiltCompany;
let other: BuiltCompany;
let token: string;
let otherToken: string;
let sandboxId: number;

const sha256 = (data: Buffer | ArrayBuffer) => createHash('sha256').update(Buffer.from(data as ArrayBuffer)).digest('hex');

beforeAll(async () => {
  s3 = await startS3Server();
  // A DATA_DIR far under its minimum: a file kept there would be refused (507); one for the bucket is not.
  t = await createTestContext({ env: { ...s3.env, DATA_DIR_MIN_FREE_MB: String(100 * 1024 * 1024) }, listen: true });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  company = await t.factories.buildCompany();
  other = await t.factories.buildCompany();
  token = (await company.admin.login()).token;
  otherToken = (await other.admin.login()).token;
  const created = await t.request(token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
  expect(created.statusCode).toBe(201);
  sandboxId = created.json().id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function post(path: string, bearer: string, fields: Parameters<typeof multipartForm>[0]): Promise<Response> {
  const form = multipartForm(fields);
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, ...form.headers }, body: form.payload });
}

async function bucketKeys(prefix: string): Promise<Map<string, number>> {
  const keys = new Map<string, number>();
  for await (const object of createS3MediaStore(s3.settings).list(prefix)) keys.set(object.key, object.size);
  return keys;
}

describe('media on S3 through the real app', () => {
  it('an agent’s file and a customer’s file land in the bucket under the company, and the signed URLs give the same bytes back', async () => {
    const photo = randomBytes(900_000);
    const received = await post(`/sandbox/${sandboxId}/inbound`, token, {
      from: '5511988880001',
      id: 's3-photo-1',
      name: 'Cliente',
      media: { fileName: 'foto da nota.jpg', mimeType: 'image/jpeg', data: photo },
    });
    expect(received.status).toBe(201);
    const { ticketId } = (await received.json()) as { ticketId: number };
    expect((await t.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);

    const pdf = Buffer.concat([Buffer.from('%PDF-1.4 '), randomBytes(300_000)]);
    const sent = await post(`/messages/${ticketId}`, token, { body: 'segue', medias: { fileName: 'orçamento.pdf', mimeType: 'application/pdf', data: pdf } });
    expect(sent.status).toBe(201);

    const messages = ((await t.request(token, 'GET', `/messages/${ticketId}`)).json() as { messages: { mediaUrl: string | null; mediaName: string | null; fromMe: boolean }[] })
      .messages;
    const customers = messages.find((m) => !m.fromMe && m.mediaUrl);
    const agents = messages.find((m) => m.fromMe && m.mediaUrl);
    const photoDownload = await fetch(`${baseUrl}${customers?.mediaUrl}`);
    expect(photoDownload.status).toBe(200);
    expect(photoDownload.headers.get('content-type')).toBe('image/jpeg');
    expect(photoDownload.headers.get('content-length')).toBe(String(photo.length));
    expect(sha256(await photoDownload.arrayBuffer())).toBe(sha256(photo));
    const pdfDownload = await fetch(`${baseUrl}${agents?.mediaUrl}`);
    expect(pdfDownload.status).toBe(200);
    expect(pdfDownload.headers.get('content-disposition')).toMatch(/^attachment; filename="or%C3%A7amento.pdf"/);
    expect(sha256(await pdfDownload.arrayBuffer())).toBe(sha256(pdf));

    const keys = await bucketKeys(`${company.id}/`);
    expect([...keys.values()].sort((a, b) => a - b)).toEqual([pdf.length, photo.length]);
    expect([...keys.keys()].every((key) => key.startsWith(`${company.id}/`))).toBe(true);
    // Nothing of it in DATA_DIR.
    const local = path.join(t.config.DATA_DIR, 'media');
    expect(existsSync(local) ? readdirSync(local, { recursive: true }) : []).toEqual([]);
  });

  it('refuses another company’s file: its path under another signature, and its ids through the API', async () => {
    const quick = await t.request(token, 'POST', '/quick-messages', { shortcode: 'tabela', message: 'Tabela' });
    const quickId = quick.json().id as number;
    const uploaded = await post(`/quick-messages/${quickId}/media-upload`, token, { file: { fileName: 'tabela.pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF-1.4 A') } });
    expect(uploaded.status).toBe(200);
    const mine = (await uploaded.json()) as { mediaPath: string; mediaUrl: string };

    const otherQuick = await t.request(otherToken, 'POST', '/quick-messages', { shortcode: 'outra', message: 'Outra' });
    const theirs = await post(`/quick-messages/${otherQuick.json().id}/media-upload`, otherToken, {
      file: { fileName: 'b.pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF-1.4 B') },
    });
    const theirUrl = new URL(((await theirs.json()) as { mediaUrl: string }).mediaUrl, baseUrl);
    const myUrl = new URL(mine.mediaUrl, baseUrl);
    // The other company's valid signature does not open this company's file.
    const swapped = `${baseUrl}${myUrl.pathname}${theirUrl.search}`;
    expect((await fetch(swapped)).status).toBe(404);
    expect((await fetch(`${baseUrl}${myUrl.pathname}`)).status).toBe(400);
    // Its ids are not found through the other company's session, and its file stays.
    expect((await t.request(otherToken, 'DELETE', `/quick-messages/${quickId}/media-upload`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'GET', `/quick-messages/${quickId}`)).statusCode).toBe(404);
    const still = await fetch(`${baseUrl}${mine.mediaUrl}`);
    expect(still.status).toBe(200);
    expect(await still.text()).toBe('%PDF-1.4 A');
  });

  it('a bucket that does not answer: an upload is a 503 with Retry-After and changes nothing; it works again once the bucket is back', async () => {
    const quick = await t.request(token, 'POST', '/quick-messages', { shortcode: 'fora', message: 'Fora do ar' });
    const quickId = quick.json().id as number;
    const file = { file: { fileName: 'a.pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF-1.4 outage') } };
    await s3.stop();
    try {
      const refused = await post(`/quick-messages/${quickId}/media-upload`, token, file);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ error: 'ERR_SERVICE_UNAVAILABLE' });
      expect((await t.request(token, 'GET', `/quick-messages/${quickId}`)).json()).toMatchObject({ mediaPath: null });
      // /health says so (its status here is DATA_DIR's, which this file keeps under its minimum).
      const health = await fetch(`${baseUrl}/health`);
      expect((await health.clone().json()) as { status: string }).toMatchObject({ status: 'storage_full', storage: { status: 'full' } });
      expect(((await health.json()) as { media: unknown }).media).toMatchObject({ kind: 's3', status: 'unavailable', reason: expect.stringContaining('ECONNREFUSED') });
    } finally {
      await s3.start();
    }
    const accepted = await post(`/quick-messages/${quickId}/media-upload`, token, file);
    expect(accepted.status).toBe(200);
    const download = await fetch(`${baseUrl}${((await accepted.json()) as { mediaUrl: string }).mediaUrl}`);
    expect(await download.text()).toBe('%PDF-1.4 outage');
    expect(((await (await fetch(`${baseUrl}/health`)).json()) as { media: unknown }).media).toEqual({ kind: 's3', status: 'ok' });
  });
});
