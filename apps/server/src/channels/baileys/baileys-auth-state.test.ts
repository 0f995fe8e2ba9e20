import { initAuthCreds, proto } from 'baileys';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysAuthKeys } from '../../platform/db/schema.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { clearAuthState, hasPairedCreds, useDatabaseAuthState } from './baileys-auth-state.js';

let t: TestContext;
let ref: { companyId: number; whatsappId: number };
let other: { companyId: number; whatsappId: number };

beforeAll(async () => {
  t = await createTestContext();
  const sd = createServiceDeskFactories(t.database.db);
  const company = await t.factories.buildCompany();
  ref = { companyId: company.id, whatsappId: (await sd.buildConnection(company.id, { provider: 'beta', status: 'DISCONNECTED' })).id };
  other = { companyId: company.id, whatsappId: (await sd.buildConnection(company.id, { provider: 'beta', status: 'DISCONNECTED', isDefault: false })).id };
});
afterAll(() => t.close());

const rows = (whatsappId: number) =>
  t.database.db
    .select({ key: baileysAuthKeys.key, value: baileysAuthKeys.value, updatedAt: baileysAuthKeys.updatedAt })
    .from(baileysAuthKeys)
    .where(eq(baileysAuthKeys.whatsappId, whatsappId));

describe('Baileys auth state in the database', () => {
  it('starts with fresh credentials and nothing stored', async () => {
    const { state } = await useDatabaseAuthState(t.database.db, ref);
    expect(state.creds.registered).toBe(false);
    expect(state.creds.noiseKey.public).toBeInstanceOf(Uint8Array);
    expect(await rows(ref.whatsappId)).toEqual([]);
    expect(await hasPairedCreds(t.database.db, ref)).toBe(false);
  });

  it('round-trips credentials and every kind of key, binary values included, so a restart resumes', async () => {
    const first = await useDatabaseAuthState(t.database.db, ref);
    Object.assign(first.state.creds, { me: { id: '5511940000000:7@s.whatsapp.net', name: 'Loja' }, registered: true });
    await first.saveCreds();
    const preKey = { public: Buffer.from([1, 2, 3, 4]), private: Buffer.from([5, 6, 7, 8]) };
    const appStateKey = proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from('key-data'), timestamp: 1700000000 });
    await first.state.keys.set({
      'pre-key': { '1': preKey, '2': preKey },
      session: { '5511977770000.0': Buffer.from('session-bytes') },
      'app-state-sync-key': { AAAA: appStateKey },
      'lid-mapping': { '123456789': '5511977770000' },
    });

    const second = await useDatabaseAuthState(t.database.db, ref);
    expect(second.state.creds.me?.id).toBe('5511940000000:7@s.whatsapp.net');
    expect(Buffer.from(second.state.creds.noiseKey.private).equals(Buffer.from(first.state.creds.noiseKey.private))).toBe(true);
    expect(Buffer.from(second.state.creds.signedIdentityKey.public).equals(Buffer.from(first.state.creds.signedIdentityKey.public))).toBe(true);
    const preKeys = await second.state.keys.get('pre-key', ['1', '2', '3']);
    expect(Buffer.from(preKeys['1']?.public ?? []).equals(preKey.public)).toBe(true);
    expect(preKeys['3']).toBeUndefined();
    const sessions = await second.state.keys.get('session', ['5511977770000.0']);
    expect(Buffer.from(sessions['5511977770000.0'] ?? []).toString()).toBe('session-bytes');
    const appKeys = await second.state.keys.get('app-state-sync-key', ['AAAA']);
    // Baileys calls protobuf methods on app-state keys: they come back as protobuf objects.
    expect(appKeys.AAAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(appKeys.AAAA?.keyData ?? []).toString()).toBe('key-data');
    expect((await second.state.keys.get('lid-mapping', ['123456789']))['123456789']).toBe('5511977770000');
    expect(await hasPairedCreds(t.database.db, ref)).toBe(true);
  });

  it('stores one row per key, rewrites only the rows a change touches, and deletes keys set to null', async () => {
    const before = new Map((await rows(ref.whatsappId)).map((row) => [row.key, row]));
    expect([...before.keys()].sort()).toEqual(['app-state-sync-key/AAAA', 'creds', 'lid-mapping/123456789', 'pre-key/1', 'pre-key/2', 'session/5511977770000.0']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { state } = await useDatabaseAuthState(t.database.db, ref);
    await state.keys.set({ 'pre-key': { '1': null, '9': { public: Buffer.from([9]), private: Buffer.from([9]) } } });
    const after = new Map((await rows(ref.whatsappId)).map((row) => [row.key, row]));
    expect(after.has('pre-key/1')).toBe(false);
    expect(after.has('pre-key/9')).toBe(true);
    // Untouched rows keep their value and write time.
    expect(after.get('session/5511977770000.0')).toEqual(before.get('session/5511977770000.0'));
    expect(after.get('creds')).toEqual(before.get('creds'));
  });

  it('writes a batch atomically: when one row fails, the deletions of its batch are undone too', async () => {
    const { state } = await useDatabaseAuthState(t.database.db, ref);
    // PostgreSQL text cannot hold a NUL character: this row makes the batch fail after its deletion ran.
    await expect(state.keys.set({ 'pre-key': { '2': null }, session: { 'new.0': Buffer.from('x'), 'bad\u0000.0': Buffer.from('y') } })).rejects.toThrow();
    const keys = (await rows(ref.whatsappId)).map((row) => row.key);
    expect(keys).toContain('pre-key/2');
    expect(keys).not.toContain('session/new.0');
  });

  it('keeps connections apart, and forgets one pairing on clear', async () => {
    const { state, saveCreds } = await useDatabaseAuthState(t.database.db, other);
    Object.assign(state.creds, { me: { id: '5511950000000:1@s.whatsapp.net' } });
    await saveCreds();
    expect((await useDatabaseAuthState(t.database.db, ref)).state.creds.me?.id).toBe('5511940000000:7@s.whatsapp.net');
    await clearAuthState(t.database.db, ref);
    expect(await rows(ref.whatsappId)).toEqual([]);
    expect((await useDatabaseAuthState(t.database.db, ref)).state.creds.me).toBeUndefined();
    const [kept] = await t.database.db
      .select()
      .from(baileysAuthKeys)
      .where(and(eq(baileysAuthKeys.whatsappId, other.whatsappId), eq(baileysAuthKeys.key, 'creds')));
    expect(kept).toBeDefined();
    expect(initAuthCreds().registered).toBe(false);
  });
});
