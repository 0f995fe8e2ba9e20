import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newCounters, report, runChats, sandboxDelivery } from './burst.js';
import { api, privatePostgres, queryDatabase, serverSecrets, signIn, startServer, waitFor, type PrivatePostgres, type ServerProcess } from './processes.js';

/*
 * Issue 29: the bot's answer is durable. 150 new conversations reach a connection
 * whose bot greets with a menu, the server is killed with SIGKILL mid-burst (with
 * messages stored whose turns are undecided, decided but unsent, or being sent) and
 * restarted: every customer gets exactly one greeting.
 */

let database: PrivatePostgres;
let server: ServerProcess;
let env: Record<string, string>;

const CHATS = 150;
const KILL_AFTER_ACKNOWLEDGED = 40;
const GREETING = 'Olá! Escolha uma opção.';

beforeAll(async () => {
  database = await privatePostgres(inject('faultCluster'));
  // What the killed process left is taken over 5 s later instead of 5 minutes.
  env = { ...serverSecrets(), DATABASE_URL: database.url, JOBS_MAINTENANCE_SECONDS: '5', RECOVERY_AFTER_SECONDS: '5' };
  server = await startServer(env);
}, 90_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
});

const query = <Row>(text: string, values: unknown[] = []) => queryDatabase<Row>(database.url, text, values);

describe('a burst of new conversations with a bot across a server kill', () => {
  it('greets every customer exactly once', async () => {
    const { token } = await signIn(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const queueIds: number[] = [];
    for (const name of ['Vendas', 'Suporte']) {
      const created = await api(server, token, 'POST', '/queue', { name, color: `#0000${queueIds.length}0` });
      expect(created.status).toBe(201);
      queueIds.push(((await created.json()) as { id: number }).id);
    }
    const connection = await api(server, token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox', greetingMessage: GREETING, queueIds });
    expect(connection.status).toBe(201);
    const whatsappId = ((await connection.json()) as { id: number }).id;

    const numbers = Array.from({ length: CHATS }, (_, index) => `55419${String(6_000_000 + index).padStart(8, '0')}`);
    const chats = numbers.map((number, index) => [sandboxDelivery(() => server.url, token, whatsappId, number, `bot-turn-${index}`, 'Oi')]);
    const counters = newCounters();
    let killed: Promise<void> | null = null;
    await runChats(chats, counters, {
      redeliverEvery: 10,
      deadline: Date.now() + 120_000,
      onAcknowledged() {
        if (killed || counters.acknowledged < KILL_AFTER_ACKNOWLEDGED) return;
        killed = (async () => {
          const port = server.port;
          await server.kill('SIGKILL');
          server = await startServer(env, port);
        })();
      },
    });
    await killed;
    expect(killed).not.toBeNull();

    const greeted = async () =>
      new Map(
        (await query<{ number: string; count: string }>(`select number, count(*) from sandbox_outbox where whatsapp_id = $1 group by number`, [whatsappId])).map(
          (row) => [row.number, Number(row.count)],
        ),
      );
    // Undecided turns are taken over after 5 s, unsent answers after 5 s more: both within a minute.
    const outbox = await waitFor(
      'every customer to be greeted',
      async () => {
        const now = await greeted();
        return numbers.every((number) => now.has(number)) ? now : null;
      },
      90_000,
      500,
    ).catch(async () => greeted());
    // A late duplicate would come from a sweep after the last one: give one more round its time.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const settled = await greeted();
    const lost = numbers.filter((number) => !settled.has(number)).length;
    const duplicated = [...settled.values()].filter((count) => count > 1).length;
    const [left] = await query<{ turns: string; pending: string }>(
      `select (select count(*) from bot_turns) as turns, (select count(*) from messages where whatsapp_id = $1 and send_status <> 'sent') as pending`,
      [whatsappId],
    );
    const bodies = await query<{ body: string }>(`select distinct body from sandbox_outbox where whatsapp_id = $1`, [whatsappId]);
    report('bot greetings across a SIGKILL', { faults: 1, sent: CHATS, stored: outbox.size, lost, duplicated });

    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(bodies.map((row) => row.body)).toEqual([expect.stringContaining(GREETING)]);
    expect(left).toEqual({ turns: '0', pending: '0' });
  }, 300_000);
});
