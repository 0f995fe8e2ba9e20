import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { report } from './burst.js';
import { api, serverSecrets, signIn, privatePostgres, queryDatabase, sleep, startServer, waitFor, type PrivatePostgres, type ServerProcess } from './processes.js';

/*
 * Issue 20: 50 schedules fall due while the server is down. After the restart
 * each one is sent exactly once (the sandbox outbox holds one message per
 * contact) and marked ENVIADA, even though the server is killed again with
 * SIGKILL while it is sending them.
 */

let database: PrivatePostgres;
let server: ServerProcess;
let env: Record<string, string>;

const COUNT = 50;

beforeAll(async () => {
  database = await privatePostgres(inject('faultCluster'));
  env = {
    ...serverSecrets(),
    DATABASE_URL: database.url,
    JOBS_MAINTENANCE_SECONDS: '5',
    OUTBOUND_SWEEP_SECONDS: '1',
    // A claim the killed process left is re-checked after 5 s instead of 90.
    OUTBOUND_CLAIM_LEASE_SECONDS: '5',
  };
  server = await startServer(env);
}, 90_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
});

const query = <Row>(text: string, values: unknown[] = []) => queryDatabase<Row>(database.url, text, values);

describe('schedules due during a downtime', () => {
  it('are each sent exactly once after the restart, also when the server is killed again while sending', async () => {
    const { token } = await signIn(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const created = await api(server, token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    expect(created.status).toBe(201);
    const whatsappId = ((await created.json()) as { id: number }).id;

    const numbers = Array.from({ length: COUNT }, (_, index) => `55419555${String(index).padStart(5, '0')}`);
    const contactIds: number[] = [];
    for (const [index, number] of numbers.entries()) {
      const contact = await api(server, token, 'POST', '/contacts', { name: `Cliente ${index}`, number });
      expect(contact.status, await contact.clone().text()).toBeLessThan(300);
      contactIds.push(((await contact.json()) as { id: number }).id);
    }
    // Due in a few seconds: by then the server is down.
    const sendAt = new Date(Date.now() + 6_000).toISOString();
    for (const [index, contactId] of contactIds.entries()) {
      const schedule = await api(server, token, 'POST', '/schedules', { body: `Lembrete ${index}`, contactId, sendAt });
      expect(schedule.status).toBe(201);
    }
    await server.kill('SIGKILL');
    const pending = await query<{ count: string }>(`select count(*) from schedules where status = 'PENDENTE'`);
    expect(Number(pending[0]?.count)).toBe(COUNT);
    await sleep(Math.max(0, new Date(sendAt).getTime() - Date.now()) + 1_000);

    // Back up: it starts sending; killed again at a random moment of the sending.
    server = await startServer(env, server.port);
    await waitFor('the first schedules to be picked up', async () => {
      const [row] = await query<{ count: string }>(`select count(*) from outbound_sends where kind = 'schedule'`);
      return Number(row?.count) > 0;
    }, 30_000, 20);
    await sleep(Math.floor(Math.random() * 300));
    await server.kill('SIGKILL');
    const [midway] = await query<{ sent: string }>(`select count(*) as sent from sandbox_outbox where whatsapp_id = $1`, [whatsappId]);

    server = await startServer(env, server.port);
    const done = await waitFor(
      'every schedule to be ENVIADA',
      async () => {
        const rows = await query<{ status: string; count: string }>(`select status, count(*) from schedules group by status`);
        const sent = rows.find((row) => row.status === 'ENVIADA');
        return Number(sent?.count) === COUNT ? rows : null;
      },
      // The run the killed process held blocks the connection until its 40 s lease ends.
      120_000,
      250,
    ).catch(async (error: unknown) => {
      // What was left, for the failure message.
      const schedulesLeft = await query(`select status, reason, count(*) from schedules group by 1, 2`);
      const sendsLeft = await query(`select state, reason, attempts, count(*) from outbound_sends group by 1, 2, 3`);
      const jobs = await query(`select name, state, count(*) from pgboss.job where name like 'outbound%' group by 1, 2`);
      throw new Error(`${String(error)}\n${JSON.stringify({ schedulesLeft, sendsLeft, jobs })}\n${server.output().slice(-3000)}`);
    });
    expect(done).toEqual([{ status: 'ENVIADA', count: String(COUNT) }]);

    const outbox = await query<{ number: string; count: string }>(`select number, count(*) from sandbox_outbox where whatsapp_id = $1 group by number`, [whatsappId]);
    const perNumber = new Map(outbox.map((row) => [row.number, Number(row.count)]));
    const lost = numbers.filter((number) => !perNumber.has(number)).length;
    const duplicated = [...perNumber.values()].filter((count) => count > 1).length;
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(perNumber.size).toBe(COUNT);
    // Each schedule's message is in its contact's ticket, sent.
    const [stored] = await query<{ count: string }>(`select count(*) from messages where from_me and send_status = 'sent' and body like 'Lembrete %'`);
    expect(Number(stored?.count)).toBe(COUNT);
    const sends = await query<{ state: string; count: string }>(`select state, count(*) from outbound_sends where kind = 'schedule' group by state`);
    expect(sends).toEqual([{ state: 'delivered', count: String(COUNT) }]);
    report('schedules due during a downtime, SIGKILL while sending', { faults: 2, sent: COUNT, stored: Number(midway?.sent ?? 0), lost, duplicated });
  }, 240_000);
});
