import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { report } from './burst.js';
import { api, serverSecrets, signIn, privatePostgres, queryDatabase, startServer, waitFor, type PrivatePostgres, type ServerProcess } from './processes.js';

let database: PrivatePostgres;
let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  database = await privatePostgres(inject('faultCluster'));
  env = { ...serverSecrets(), DATABASE_URL: database.url };
  server = await startServer(env);
}, 90_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
});

const query = <Row>(text: string, values: unknown[] = []) => queryDatabase<Row>(database.url, text, values);

const queuedTimers = () =>
  query<{ id: string; start_after: Date }>(`select id, start_after from pgboss.job where name = 'automation.timers' and state in ('created', 'retry')`);

describe('timers across a real process restart (pg-boss on PostgreSQL)', () => {
  it('the queued timers run survives SIGKILL of the server, runs in the new process, closes the inactive ticket and queues its next run', async () => {
    const { token } = await signIn(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const created = await api(server, token, 'POST', '/whatsapp', {
      name: 'Sandbox',
      provider: 'sandbox',
      expiresTicket: 30,
      expiresInactiveMessage: 'Encerramos por inatividade.',
    });
    expect(created.status).toBe(201);
    const whatsappId = ((await created.json()) as { id: number }).id;
    const number = '5541944400001';
    const said = await api(server, token, 'POST', `/sandbox/${whatsappId}/inbound`, { from: number, body: 'Oi', name: 'Rita Alves' });
    expect(said.status).toBe(201);
    const ticketId = ((await said.json()) as { ticketId: number }).ticketId;
    expect((await api(server, token, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).status).toBe(200);
    expect((await api(server, token, 'POST', `/messages/${ticketId}`, { body: 'Posso ajudar?' })).status).toBeLessThan(300);

    // The worker queued the next timers run in PostgreSQL, a minute ahead.
    const before = await waitFor('the timers run to be queued', async () => {
      const rows = await queuedTimers();
      return rows.length === 1 ? rows : null;
    });

    await server.kill('SIGKILL');
    // Time passes while the server is down: the ticket's last activity is 31 minutes old, the run is due.
    await query(`update tickets set updated_at = updated_at - interval '31 minutes' where id = $1`, [ticketId]);
    await query(`update pgboss.job set start_after = now() where id = $1`, [before[0]!.id]);

    server = await startServer(env, server.port);
    const closed = await waitFor(
      'the new process to close the inactive ticket',
      async () => {
        const [row] = await query<{ status: string }>(`select status from tickets where id = $1`, [ticketId]);
        return row?.status === 'closed' ? row : null;
      },
      45_000,
      250,
    );
    expect(closed.status).toBe('closed');
    // The closing message is sent after the close commits: wait for it rather than read the outbox once.
    const outbox = await waitFor('the inactivity message to reach the customer', async () => {
      const sent = (await (await api(server, token, 'GET', `/sandbox/${whatsappId}/outbox?number=${number}`)).json()) as { body: string }[];
      return sent.length >= 2 ? sent : null;
    });
    expect(outbox.map((m) => m.body)).toEqual(['Posso ajudar?', 'Encerramos por inatividade.']);

    // The run that survived completed, and the chain goes on with exactly one queued run, a minute ahead.
    await waitFor('the surviving run to complete', async () => {
      const [ran] = await query<{ state: string }>(`select state from pgboss.job where id = $1`, [before[0]!.id]);
      return ran?.state === 'completed';
    });
    const after = await waitFor('the next run to be queued', async () => {
      const rows = await queuedTimers();
      return rows.length === 1 && rows[0]!.id !== before[0]!.id ? rows : null;
    });
    expect(after[0]!.start_after.getTime()).toBeGreaterThan(Date.now() + 30_000);
    report('timers across a server SIGKILL', { faults: 1, sent: 0, stored: 0, lost: 0, duplicated: 0 });
  }, 120_000);
});
