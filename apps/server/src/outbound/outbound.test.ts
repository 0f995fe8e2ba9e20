import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_NOT_ON_WHATSAPP_PREFIX } from '../channels/sandbox/sandbox.provider.js';
import { contacts, messages, outboundPacing, outboundSends, sandboxOutbox, tickets, whatsapps } from '../platform/db/schema.js';
import { applySendFailure } from '../inbound/message-updates.js';
import { createChannelTestContext, type ChannelTestContext } from '../test/channel-test-app.js';
import { saveCampaignSettings } from './campaign-settings/campaign-settings.repo.js';
import { dispatchConnection } from './outbound-dispatch.js';
import { idempotencyKey, type QueuedSend, type SettledSend } from './outbound-engine.js';
import { cancelSends, listSends, queueSends, resumeSends, sendProgress } from './outbound.repo.js';
import { recoverStaleClaims, sweepOutbound } from './outbound-sweep.js';
import { inTenant } from '../platform/db/tenant.js';

/*
 * The outbound engine against the real sandbox provider (PGlite): records before
 * dispatch, exactly one message per recipient, honest failure reasons, cancel and
 * resume, the re-check of claims a crash left, and pacing from stored times under
 * a controllable clock.
 */

let t: ChannelTestContext;
let companyId: number;
let sandboxId: number;
let clock = Date.now() + 60_000;
let randoms: number[] = [];
const settledSeen: SettledSend[] = [];
let sourceSeq = 1000;

const scope = () => ({ companyId });

beforeAll(async () => {
  t = await createChannelTestContext();
  const company = await t.factories.buildCompany();
  companyId = company.id;
  const admin = (await company.admin.login()).token;
  sandboxId = (await t.request(admin, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' })).json().id;
  t.app.services.outbound.configure({
    now: () => new Date(clock),
    sleep: async (ms) => {
      clock += ms;
    },
    random: () => randoms.shift() ?? 0.5,
    runBudgetMs: 3_600_000,
  });
  t.app.services.outbound.onSendSettled('campaign', async (_tx, settled) => {
    settledSeen.push(...settled);
  });
}, 30_000);
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  // No pacing unless a test sets it.
  await saveCampaignSettings(t.app.services.db, scope(), { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, sendCaps: { baileys: 1, 'cloud-api': 0, sandbox: 0 } });
  await t.app.services.db.delete(outboundPacing).where(eq(outboundPacing.whatsappId, sandboxId));
});

function campaignSends(sourceId: number, numbers: string[]): QueuedSend[] {
  return numbers.map((number) => ({ kind: 'campaign', sourceId, recipient: number, whatsappId: sandboxId, number, items: [{ body: `hi ${number}` }], details: { variant: 1 } }));
}

async function outbox(number: string) {
  return t.app.services.db
    .select()
    .from(sandboxOutbox)
    .where(and(eq(sandboxOutbox.whatsappId, sandboxId), eq(sandboxOutbox.number, number)));
}

async function sendsOf(sourceId: number) {
  return t.app.services.db
    .select()
    .from(outboundSends)
    .where(inTenant(outboundSends, { companyId }, eq(outboundSends.sourceId, sourceId)))
    .orderBy(asc(outboundSends.id));
}

const dispatch = () => dispatchConnection(t.app.services, { companyId, whatsappId: sandboxId });

describe('outbound engine', () => {
  it('records each recipient once, sends one message each and settles delivered (sandbox ack 2), telling the source', async () => {
    const sourceId = sourceSeq++;
    const numbers = ['5511900000001', '5511900000002', '5511900000003'];
    const first = await queueSends(t.app.services.db, scope(), campaignSends(sourceId, numbers));
    expect(first).toEqual({ queued: 3, whatsappIds: [sandboxId] });
    // Queued again (a retried request, a restarted campaign): nothing new.
    expect((await queueSends(t.app.services.db, scope(), campaignSends(sourceId, numbers))).queued).toBe(0);
    await dispatch();
    await dispatch();
    for (const number of numbers) expect(await outbox(number)).toHaveLength(1);
    const rows = await sendsOf(sourceId);
    expect(rows.map((row) => row.state)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(rows.every((row) => row.externalId?.startsWith('SBX-K-') && row.attempts === 1 && row.sentAt && row.deliveredAt)).toBe(true);
    expect(settledSeen.filter((s) => s.sourceId === sourceId).map((s) => s.details)).toEqual([{ variant: 1 }, { variant: 1 }, { variant: 1 }]);
    const progress = await sendProgress(t.app.services.db, scope(), 'campaign', [sourceId]);
    expect(progress.get(sourceId)).toMatchObject({ total: 3, delivered: 3, queued: 0 });
  });

  it('fails only the record of a number that is not on WhatsApp, with ERR_WAPP_INVALID_CONTACT', async () => {
    const sourceId = sourceSeq++;
    const bad = `${SANDBOX_NOT_ON_WHATSAPP_PREFIX}11900000009`;
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000011', bad, '5511900000012']));
    await dispatch();
    const rows = await sendsOf(sourceId);
    expect(rows.map((row) => [row.state, row.reason])).toEqual([
      ['delivered', null],
      ['failed', 'ERR_WAPP_INVALID_CONTACT'],
      ['delivered', null],
    ]);
    // What a report lists as failures.
    expect((await listSends(t.app.services.db, scope(), 'campaign', sourceId, { states: ['failed'] })).map((row) => [row.number, row.reason])).toEqual([[bad, 'ERR_WAPP_INVALID_CONTACT']]);
  });

  it('a failure the channel reports after accepting a send fails its record and tells the source; a delivered one stays delivered', async () => {
    const sourceId = sourceSeq++;
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000015', '5511900000016']));
    await dispatch();
    const [first, second] = await sendsOf(sourceId);
    // The first only accepted so far (a Cloud API send before its delivered status).
    await t.app.services.db.update(outboundSends).set({ state: 'sent', ack: 1 }).where(eq(outboundSends.id, first!.id));
    for (const row of [first!, second!]) {
      await applySendFailure(t.app.services, { companyId, whatsappId: sandboxId, externalId: row.externalId! }, 'ERR_WA_UNDELIVERABLE', { code: 131026 });
    }
    expect((await sendsOf(sourceId)).map((row) => [row.state, row.reason])).toEqual([
      ['failed', 'ERR_WA_UNDELIVERABLE'],
      ['delivered', null],
    ]);
    expect(settledSeen.filter((s) => s.sourceId === sourceId && s.state === 'failed').map((s) => s.reason)).toEqual(['ERR_WA_UNDELIVERABLE']);
  });

  it('keeps the sends of a stopped connection queued and sends them when it is back', async () => {
    const sourceId = sourceSeq++;
    await t.app.services.db.update(whatsapps).set({ status: 'DISCONNECTED' }).where(eq(whatsapps.id, sandboxId));
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000021']));
    await dispatch();
    expect((await sendsOf(sourceId))[0]?.state).toBe('queued');
    await t.app.services.db.update(whatsapps).set({ status: 'CONNECTED' }).where(eq(whatsapps.id, sandboxId));
    await dispatch();
    expect((await sendsOf(sourceId))[0]?.state).toBe('delivered');
    expect(await outbox('5511900000021')).toHaveLength(1);
  });

  it('cancel leaves nothing to send; resume sends only those not sent', async () => {
    const sourceId = sourceSeq++;
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000031']));
    await dispatch();
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000032', '5511900000033']));
    expect(await cancelSends(t.app.services.db, scope(), 'campaign', sourceId)).toBe(2);
    await dispatch();
    expect((await sendsOf(sourceId)).map((row) => row.state)).toEqual(['delivered', 'cancelled', 'cancelled']);
    expect(await outbox('5511900000032')).toHaveLength(0);
    expect((await resumeSends(t.app.services.db, scope(), 'campaign', sourceId)).queued).toBe(2);
    await dispatch();
    expect((await sendsOf(sourceId)).map((row) => row.state)).toEqual(['delivered', 'delivered', 'delivered']);
    for (const number of ['5511900000031', '5511900000032', '5511900000033']) expect(await outbox(number)).toHaveLength(1);
  });

  it('re-checks a claim a crash left after the channel took the message: sent again with the same key, still one message', async () => {
    const sourceId = sourceSeq++;
    const number = '5511900000041';
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, [number]));
    const [row] = await sendsOf(sourceId);
    if (!row) throw new Error('no send');
    // The node claimed it and the channel sent it, then the node died before the settle.
    await t.app.services.db
      .update(outboundSends)
      .set({ state: 'sending', attempts: 1, claimedAt: new Date(clock - 10 * 60_000) })
      .where(eq(outboundSends.id, row.id));
    const [connection] = await t.app.services.db.select().from(whatsapps).where(eq(whatsapps.id, sandboxId));
    if (!connection) throw new Error('no connection');
    await t.app.services.channels.providerFor(connection).send(connection, { to: number, body: 'hi', idempotencyKey: idempotencyKey(row.id, 0) });
    expect(await recoverStaleClaims(t.app.services)).toBeGreaterThanOrEqual(1);
    expect((await sendsOf(sourceId))[0]?.state).toBe('queued');
    await dispatch();
    expect((await sendsOf(sourceId))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(await outbox(number)).toHaveLength(1);
  });

  it('a conversation send is stored in the contact ticket (created when none is open) and settled from it', async () => {
    const [contact] = await t.app.services.db.insert(contacts).values({ companyId, name: 'Ana', number: '5511900000051' }).returning();
    if (!contact) throw new Error('no contact');
    const sourceId = sourceSeq++;
    await queueSends(t.app.services.db, scope(), [
      { kind: 'schedule', sourceId, recipient: String(contact.id), whatsappId: sandboxId, contactId: contact.id, number: contact.number, conversation: true, items: [{ body: 'Lembrete da consulta' }] },
    ]);
    await dispatch();
    const [row] = await sendsOf(sourceId);
    expect(row).toMatchObject({ state: 'delivered', kind: 'schedule' });
    const [ticket] = await t.app.services.db.select().from(tickets).where(eq(tickets.contactId, contact.id));
    expect(ticket?.id).toBe(row?.ticketId);
    const stored = await t.app.services.db.select().from(messages).where(eq(messages.ticketId, ticket?.id ?? 0));
    expect(stored).toMatchObject([{ body: 'Lembrete da consulta', fromMe: true, sendStatus: 'sent', id: row?.messageId, externalId: row?.externalId }]);
    expect(await outbox(contact.number)).toHaveLength(1);
  });

  it('a conversation claim a crash left with its message still pending is delivered once (same key), not duplicated', async () => {
    const [contact] = await t.app.services.db.insert(contacts).values({ companyId, name: 'Bia', number: '5511900000061' }).returning();
    if (!contact) throw new Error('no contact');
    const sourceId = sourceSeq++;
    await queueSends(t.app.services.db, scope(), [
      { kind: 'schedule', sourceId, recipient: String(contact.id), whatsappId: sandboxId, contactId: contact.id, number: contact.number, conversation: true, items: [{ body: 'Oi Bia' }] },
    ]);
    const [row] = await sendsOf(sourceId);
    if (!row) throw new Error('no send');
    // Crash after the message row was stored and handed to the channel, before either was settled.
    const [ticket] = await t.app.services.db.insert(tickets).values({ companyId, contactId: contact.id, whatsappId: sandboxId, status: 'pending' }).returning();
    const payload = { to: contact.number, body: 'Oi Bia', idempotencyKey: idempotencyKey(row.id, 0) };
    await t.app.services.db.insert(messages).values({
      companyId,
      ticketId: ticket?.id ?? 0,
      contactId: contact.id,
      whatsappId: sandboxId,
      body: 'Oi Bia',
      fromMe: true,
      source: 'system',
      sendStatus: 'pending',
      sendAttempts: 1,
      sendPayload: payload,
    });
    const [connection] = await t.app.services.db.select().from(whatsapps).where(eq(whatsapps.id, sandboxId));
    if (!connection) throw new Error('no connection');
    await t.app.services.channels.providerFor(connection).send(connection, payload);
    await t.app.services.db.update(outboundSends).set({ state: 'sending', attempts: 1, claimedAt: new Date(clock - 10 * 60_000) }).where(eq(outboundSends.id, row.id));
    await recoverStaleClaims(t.app.services);
    expect((await sendsOf(sourceId))[0]).toMatchObject({ state: 'delivered', ticketId: ticket?.id });
    expect(await outbox(contact.number)).toHaveLength(1);
    const stored = await t.app.services.db.select().from(messages).where(eq(messages.contactId, contact.id));
    expect(stored).toMatchObject([{ sendStatus: 'sent' }]);
  });
});

describe('pacing (controllable clock)', () => {
  async function sentTimes(sourceId: number): Promise<number[]> {
    return (await sendsOf(sourceId)).map((row) => row.sentAt?.getTime() ?? Number.NaN);
  }
  function gaps(times: number[]): number[] {
    return times.slice(1).map((time, index) => (time - (times[index] ?? 0)) / 1000);
  }
  function expectGaps(actual: number[], expected: number[]) {
    expect(actual).toHaveLength(expected.length);
    actual.forEach((gap, index) => {
      const want = expected[index] ?? 0;
      expect(Math.abs(gap - want)).toBeLessThanOrEqual(Math.max(want * 0.1, 0.001));
    });
  }

  it('waits random × messageInterval between sends and greaterInterval after every longerIntervalAfter sends', async () => {
    await saveCampaignSettings(t.app.services.db, scope(), { messageInterval: 10, longerIntervalAfter: 3, greaterInterval: 30 });
    randoms = [0.2, 0.7, 0.9, 0.1, 0.5, 0.3];
    const sourceId = sourceSeq++;
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000101', '5511900000102', '5511900000103', '5511900000104', '5511900000105', '5511900000106', '5511900000107']));
    await dispatch();
    // Sends 1, 2: random gaps (0.2, 0.7 × 10 s); after the 3rd: 30 s; 4, 5: random (0.9, 0.1); after the 6th: 30 s.
    expectGaps(gaps(await sentTimes(sourceId)), [2, 7, 30, 9, 1, 30]);
  });

  it('a cancel while a paced run waits stops every send still queued: nothing goes after the current wait', async () => {
    await saveCampaignSettings(t.app.services.db, scope(), { messageInterval: 10 });
    const sourceId = sourceSeq++;
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000301', '5511900000302', '5511900000303', '5511900000304']));
    randoms = [0.5, 0.5, 0.5];
    let waits = 0;
    t.app.services.outbound.configure({
      sleep: async (ms) => {
        clock += ms;
        // The campaign is cancelled during the wait after the second send.
        if (++waits === 2) await cancelSends(t.app.services.db, scope(), 'campaign', sourceId);
      },
    });
    try {
      await dispatch();
    } finally {
      t.app.services.outbound.configure({
        sleep: async (ms) => {
          clock += ms;
        },
      });
    }
    expect((await sendsOf(sourceId)).map((row) => row.state)).toEqual(['delivered', 'delivered', 'cancelled', 'cancelled']);
    expect(await outbox('5511900000303')).toHaveLength(0);
  });

  it('the per-connection cap spaces every send, and a restart keeps the stored gate', async () => {
    await saveCampaignSettings(t.app.services.db, scope(), { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, sendCaps: { baileys: 1, 'cloud-api': 0, sandbox: 2 } });
    const sourceId = sourceSeq++;
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000201', '5511900000202', '5511900000203']));
    await dispatch();
    expectGaps(gaps(await sentTimes(sourceId)), [0.5, 0.5]);
    // "Restart": the next run reads the gate from the database and waits for it.
    await saveCampaignSettings(t.app.services.db, scope(), { messageInterval: 20, sendCaps: { baileys: 1, 'cloud-api': 0, sandbox: 0 } });
    randoms = [0.5];
    await queueSends(t.app.services.db, scope(), campaignSends(sourceId, ['5511900000204', '5511900000205']));
    await dispatch();
    expectGaps(gaps(await sentTimes(sourceId)), [0.5, 0.5, 0.5, 10]);
  });
});

describe('the sweep', () => {
  it('runs every source and the rest of the sweep when one source fails', async () => {
    const logged: string[] = [];
    t.app.services.outbound.configure({ logger: { error: (_o: object, message?: string) => logged.push(message ?? ''), info: () => undefined, warn: () => undefined } as never });
    const ran: string[] = [];
    t.app.services.outbound.onSweep(async () => {
      ran.push('failing');
      throw new Error('source down');
    });
    t.app.services.outbound.onSweep(async () => {
      ran.push('next');
    });
    await sweepOutbound(t.app.services);
    expect(ran).toEqual(['failing', 'next']);
    expect(logged).toContain('outbound sweep hook failed');
  });
});
