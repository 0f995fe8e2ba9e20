import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { report } from './burst.js';
import { api, serverSecrets, signIn, privatePostgres, queryDatabase, sleep, startServer, waitFor, type PrivatePostgres, type ServerProcess } from './processes.js';

/*
 * Issue 20: a 200-contact campaign on a sandbox connection, the server killed
 * with SIGKILL three times at random moments while it sends and restarted: every
 * contact gets exactly one message (sandbox outbox) and the report's counts match.
 */

let database: PrivatePostgres;
let server: ServerProcess;
let env: Record<string, string>;

const COUNT = 200;

beforeAll(async () => {
  database = await privatePostgres(inject('faultCluster'));
  env = {
    ...serverSecrets(),
    DATABASE_URL: database.url,
    JOBS_MAINTENANCE_SECONDS: '5',
    OUTBOUND_SWEEP_SECONDS: '1',
    OUTBOUND_CLAIM_LEASE_SECONDS: '5',
  };
  server = await startServer(env);
}, 90_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
});

const query = <Row>(text: string, values: unknown[] = []) => queryDatabase<Row>(database.url, text, values);

describe('a campaign across three server kills', () => {
  it('sends each of its 200 contacts exactly one message and reports matching counts', async () => {
    const { token } = await signIn(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const created = await api(server, token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    const whatsappId = ((await created.json()) as { id: number }).id;
    // No random waits; 40 messages a second on the sandbox, so the sending lasts about 5 s and the kills land in it.
    const settings = await api(server, token, 'POST', '/campaign-settings', {
      settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, sendCaps: { baileys: 1, 'cloud-api': 0, sandbox: 40 } },
    });
    expect(settings.status).toBe(200);
    const list = (await (await api(server, token, 'POST', '/contact-lists', { name: 'Todos' })).json()) as { id: number };
    const numbers = Array.from({ length: COUNT }, (_, index) => `55479555${String(index).padStart(5, '0')}`);
    const [company] = await query<{ company_id: number }>(`select company_id from contact_lists where id = $1`, [list.id]);
    await query(
      `insert into contact_list_items (company_id, contact_list_id, name, number) select $1, $2, 'Cliente ' || n, n from unnest($3::text[]) as n`,
      [company!.company_id, list.id, numbers],
    );
    const campaign = await api(server, token, 'POST', '/campaigns', { name: 'Resiliente', message1: 'Oferta para {nome}', whatsappId, contactListId: list.id, scheduledAt: new Date().toISOString() });
    expect(campaign.status).toBe(201);
    const campaignId = ((await campaign.json()) as { id: number }).id;

    const sentSoFar = async () => Number((await query<{ count: string }>(`select count(*) from sandbox_outbox where whatsapp_id = $1`, [whatsappId]))[0]?.count);
    for (let kill = 0; kill < 3; kill += 1) {
      const before = await sentSoFar();
      await waitFor('more messages to go out', async () => (await sentSoFar()) > before, 90_000, 20);
      await sleep(Math.floor(Math.random() * 400));
      await server.kill('SIGKILL');
      server = await startServer(env, server.port);
    }

    const { token: again } = await signIn(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const finished = await waitFor(
      'the campaign to be FINALIZADA',
      async () => {
        const now = (await (await api(server, again, 'GET', `/campaigns/${campaignId}`)).json()) as { status: string; progress: Record<string, number> };
        return now.status === 'FINALIZADA' ? now : null;
      },
      180_000,
      500,
    ).catch(async (error: unknown) => {
      const sends = await query(`select state, reason, count(*) from outbound_sends group by 1, 2`);
      throw new Error(`${String(error)}\n${JSON.stringify(sends)}\n${server.output().slice(-3000)}`);
    });

    const outbox = await query<{ number: string; count: string }>(`select number, count(*) from sandbox_outbox where whatsapp_id = $1 group by number`, [whatsappId]);
    const perNumber = new Map(outbox.map((row) => [row.number, Number(row.count)]));
    const lost = numbers.filter((number) => !perNumber.has(number)).length;
    const duplicated = [...perNumber.values()].filter((count) => count > 1).length;
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(finished.progress).toMatchObject({ valid: COUNT, sent: COUNT, delivered: COUNT, failed: 0, queued: 0 });
    report('campaign of 200 across three SIGKILLs', { faults: 3, sent: COUNT, stored: perNumber.size, lost, duplicated });
  }, 400_000);
});
