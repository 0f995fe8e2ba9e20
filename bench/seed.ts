/**
 * Deterministic benchmark dataset (issue 7): one company with 10 agents, one
 * connection, N contacts and tickets (20% open, 10% pending, 70% closed, spread
 * over 90 days), and M messages (1% of the tickets, at most 500, heavy with 100
 * messages each; the rest share what is left: 9–10 each at the sizes).
 *
 *   DATABASE_URL=postgres://... npx tsx bench/seed.ts --tickets 50000 --messages 500000
 *   DATA_DIR=./data-bench npx tsx bench/seed.ts --tickets 5000 --messages 50000   (embedded)
 *
 * Rows are inserted with multi-row `unnest` statements, 10k at a time.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../apps/server/src/modules/auth/auth.service.js';
import { seedFirstStart } from '../apps/server/src/modules/companies/first-start.seed.js';
import { insertDefaultSettings } from '../apps/server/src/modules/settings/settings.repo.js';
import { openDatabase, type Database } from '../apps/server/src/platform/db/client.js';
import { companies, plans, queues, userQueues, users, whatsapps } from '../apps/server/src/platform/db/schema.js';

export const BENCH_ADMIN = { email: 'bench-admin@atende.local', password: 'BenchAdmin1' };
const AGENTS = 10;
const HEAVY_TICKETS = 500;
const HEAVY_SIZE = 100;
const BATCH = 10_000;

/** A small, fast, seeded generator: the same arguments give the same data. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Isabela', 'João', 'Larissa', 'Marcos', 'Natália', 'Otávio', 'Paula', 'Rafael', 'Sofia', 'Tiago', 'Vitória', 'William'];
const LAST = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Pereira', 'Costa', 'Rodrigues', 'Almeida', 'Nascimento', 'Lima', 'Araújo', 'Fernandes', 'Carvalho', 'Gomes', 'Martins'];
const WORDS = (
  'pedido entrega atraso boleto pagamento cartão reembolso troca produto garantia nota fiscal endereço rastreio ' +
  'desconto cupom cadastro senha acesso aplicativo site loja horário atendimento suporte técnico instalação ' +
  'obrigado bom dia boa tarde por favor urgente ainda não chegou quando vai chegar quero cancelar confirmar ' +
  'o a de do da que e é em um uma para com meu minha seu sua já foi está tem pode hoje amanhã ontem semana'
).split(' ');

const PRODUCTS = 'geladeira fogão micro-ondas televisão celular notebook impressora sofá colchão mesa cadeira bicicleta tênis camiseta ventilador ar-condicionado liquidificador batedeira cafeteira aspirador máquina secadora monitor teclado mouse fone caixa relógio mochila panela'.split(' ');
const BRANDS = 'brastemp consul electrolux samsung lg philips mondial britânia arno oster dell lenovo acer positivo motorola xiaomi apple sony jbl tramontina'.split(' ');
const CITIES = 'campinas curitiba salvador recife fortaleza manaus belém goiânia natal maceió vitória florianópolis londrina joinville uberlândia sorocaba niterói osasco santos guarulhos'.split(' ');
/**
 * Everyday words fill most of a message; product, brand, city and model words
 * are sparse, as in real conversations, so a search for one of them is selective.
 */
const TOPICS = [...PRODUCTS, ...BRANDS, ...CITIES, ...Array.from({ length: 300 }, (_, i) => `modelo${(i * 7919) % 1000}`)];

function sentence(next: () => number): string {
  const length = 4 + Math.floor(next() * 12);
  const words: string[] = [];
  for (let i = 0; i < length; i++) {
    const pool = next() < 0.2 ? TOPICS : WORDS;
    words.push(pool[Math.floor(next() * pool.length)] ?? 'olá');
  }
  return words.join(' ');
}

export const phases: Record<string, number> = {};

/**
 * Building an index once over loaded rows is far cheaper than maintaining it row
 * by row (the GIN full-text index above all), so a bulk load into a fresh
 * database drops the secondary indexes of its big tables and rebuilds them after.
 */
async function withoutSecondaryIndexes(database: Database, tables: string[], load: () => Promise<void>): Promise<void> {
  const { rows } = await database.sql.executeSql(
    `select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = any($1) and indexname not like '%_pkey' and indexdef not like 'CREATE UNIQUE%'`,
    [tables],
  );
  for (const row of rows) await database.sql.executeSql(`drop index ${String(row.indexname)}`);
  await load();
  const started = performance.now();
  for (const row of rows) await database.sql.executeSql(String(row.indexdef));
  phases.indexes = Math.round(performance.now() - started);
}

async function insertRows(database: Database, table: string, columns: [name: string, type: string][], rows: unknown[][]): Promise<void> {
  const started = performance.now();
  const unnest = columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const statement = `insert into ${table} (${columns.map(([name]) => name).join(', ')}) select * from unnest(${unnest})`;
  const batches: unknown[][][] = [];
  for (let start = 0; start < rows.length; start += BATCH) batches.push(rows.slice(start, start + BATCH));
  // Two lanes keep both cores of the database busy (PGlite runs them one after the other anyway).
  const lane = async (offset: number) => {
    for (let i = offset; i < batches.length; i += 2) {
      const chunk = batches[i] ?? [];
      await database.sql.executeSql(statement, columns.map((_, index) => chunk.map((row) => row[index])));
    }
  };
  await Promise.all([lane(0), lane(1)]);
  phases[table] = Math.round(performance.now() - started);
}

export interface SeedOptions {
  tickets: number;
  messages: number;
}

export async function seedBench(database: Database, options: SeedOptions) {
  const next = random(20261122);
  const db = database.db;
  await seedFirstStart(db, { adminEmail: 'admin@admin.com', adminPassword: 'Admin123!' });
  const existing = await database.sql.executeSql(`select id from companies where name = 'Bench'`);
  if (existing.rows.length > 0) throw new Error('The bench company exists already: seed into a fresh database.');

  const [plan] = await db.insert(plans).values({ name: 'Bench plan', users: 0, connections: 0, queues: 0 }).returning({ id: plans.id });
  if (!plan) throw new Error('plan');
  const [company] = await db.insert(companies).values({ name: 'Bench', planId: plan.id }).returning({ id: companies.id });
  if (!company) throw new Error('company');
  const companyId = company.id;
  await insertDefaultSettings(db, { companyId });
  const passwordHash = await hashPassword(BENCH_ADMIN.password);
  const [admin] = await db
    .insert(users)
    .values({ companyId, name: 'Bench Admin', email: BENCH_ADMIN.email, passwordHash, profile: 'admin', allTicket: 'enabled' })
    .returning({ id: users.id });
  const agentRows = await db
    .insert(users)
    .values(Array.from({ length: AGENTS }, (_, i) => ({ companyId, name: `Agent ${i + 1}`, email: `bench-agent-${i + 1}@atende.local`, passwordHash })))
    .returning({ id: users.id });
  const queueRows = await db
    .insert(queues)
    .values([
      { companyId, name: 'Vendas', color: '#1976d2', orderQueue: 1 },
      { companyId, name: 'Suporte', color: '#2e7d32', orderQueue: 2 },
    ])
    .returning({ id: queues.id });
  await db.insert(userQueues).values(agentRows.flatMap((agent) => queueRows.map((queue) => ({ companyId, userId: agent.id, queueId: queue.id }))));
  const [connection] = await db
    .insert(whatsapps)
    .values({ companyId, name: 'Bench sandbox', provider: 'sandbox', status: 'CONNECTED', isDefault: true })
    .returning({ id: whatsapps.id });
  if (!admin || !connection) throw new Error('seed');

  const contactBase = Number((await database.sql.executeSql(`select coalesce(max(id), 0) as id from contacts`)).rows[0]?.id ?? 0);
  const ticketBase = Number((await database.sql.executeSql(`select coalesce(max(id), 0) as id from tickets`)).rows[0]?.id ?? 0);
  const now = Date.now();
  const day = 86_400_000;

  const contactRows: unknown[][] = [];
  for (let i = 0; i < options.tickets; i++) {
    const name = `${FIRST[Math.floor(next() * FIRST.length)]} ${LAST[Math.floor(next() * LAST.length)]}`;
    contactRows.push([companyId, name, `55${String(11_900_000_000 + i)}`, connection.id]);
  }
  await insertRows(database, 'contacts', [['company_id', 'int'], ['name', 'text'], ['number', 'text'], ['whatsapp_id', 'int']], contactRows);

  // Message counts: heavy tickets first (1% of them, as in the full size, so a smaller
  // dataset keeps its shape), the rest share what is left (9–10 each).
  const heavy = Math.min(HEAVY_TICKETS, Math.max(1, Math.round(options.tickets / 100)), Math.floor(options.messages / HEAVY_SIZE));
  const rest = Math.max(0, options.messages - heavy * HEAVY_SIZE);
  const lightCount = options.tickets - heavy;
  const perLight = lightCount > 0 ? rest / lightCount : 0;

  const ticketRows: unknown[][] = [];
  const messageRows: unknown[][] = [];
  let carry = 0;
  for (let i = 0; i < options.tickets; i++) {
    const roll = next();
    const status = roll < 0.2 ? 'open' : roll < 0.3 ? 'pending' : 'closed';
    const agent = agentRows[Math.floor(next() * agentRows.length)]!.id;
    const queue = queueRows[Math.floor(next() * queueRows.length)]!.id;
    const created = now - Math.floor(next() * 90 * day);
    let count = HEAVY_SIZE;
    if (i >= heavy) {
      carry += perLight;
      count = Math.floor(carry);
      carry -= count;
    }
    let last = '';
    let unread = 0;
    for (let m = 0; m < count; m++) {
      const fromMe = m % 2 === 1;
      const body = sentence(next);
      const at = new Date(created + m * 60_000);
      last = body;
      if (!fromMe && status !== 'closed' && m >= count - 2) unread += 1;
      messageRows.push([companyId, ticketBase + i + 1, contactBase + i + 1, connection.id, fromMe ? agent : null, `bench-${i}-${m}`, body, fromMe, fromMe ? 'agent' : 'customer', fromMe ? 3 : 0, unread === 0, at.toISOString()]);
    }
    const updated = new Date(created + count * 60_000).toISOString();
    ticketRows.push([
      companyId,
      contactBase + i + 1,
      connection.id,
      status === 'pending' ? null : agent,
      queue,
      status,
      status === 'closed' ? 0 : unread,
      last.slice(0, 255),
      new Date(created).toISOString(),
      updated,
    ]);
  }
  // The messages' words go into message_terms after the load, not statement by
  // statement through the trigger.
  await db.execute(sql`alter table messages disable trigger messages_terms_insert`);
  await withoutSecondaryIndexes(database, ['tickets', 'messages'], async () => {
  await insertRows(
    database,
    'tickets',
    [['company_id', 'int'], ['contact_id', 'int'], ['whatsapp_id', 'int'], ['user_id', 'int'], ['queue_id', 'int'], ['status', 'text'], ['unread_messages', 'int'], ['last_message', 'text'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz']],
    ticketRows,
  );
  await insertRows(
    database,
    'messages',
    [['company_id', 'int'], ['ticket_id', 'int'], ['contact_id', 'int'], ['whatsapp_id', 'int'], ['user_id', 'int'], ['external_id', 'text'], ['body', 'text'], ['from_me', 'bool'], ['source', 'text'], ['ack', 'int'], ['read', 'bool'], ['created_at', 'timestamptz']],
    messageRows,
  );
  });
  // The words as the index build likes them: the key (as the migration defined it) added
  // after the rows, which two lanes insert.
  const wordsStarted = performance.now();
  const { rows: keys } = await database.sql.executeSql(`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'message_terms_pkey'`);
  await db.execute(sql`alter table message_terms drop constraint message_terms_pkey`);
  await Promise.all([0, 1].map((lane) => database.sql.executeSql('select message_terms_backfill(2, $1)', [lane])));
  await database.sql.executeSql(`alter table message_terms add constraint message_terms_pkey ${String(keys[0]?.def)}`);
  await db.execute(sql`alter table messages enable trigger messages_terms_insert`);
  phases.message_terms = Math.round(performance.now() - wordsStarted);
  // A database that has lived 90 days has been vacuumed: its visibility map is set
  // (index-only scans skip the table) and autovacuum has nothing left to do.
  const vacuumStarted = performance.now();
  // The dashboard's daily totals took the whole load as a burst of updates; over 90 real
  // days they are written a few rows at a time and stay compact (fillfactor 50, HOT).
  await db.execute(sql`vacuum full ticket_cycle_days, ticket_cycle_frt, contact_days`);
  await db.execute(sql`vacuum analyze`);
  phases.vacuum = Math.round(performance.now() - vacuumStarted);
  return { companyId, adminId: admin.id, connectionId: connection.id, heavyTicketId: ticketBase + 1, lightTicketId: ticketBase + options.tickets, tickets: ticketRows.length, messages: messageRows.length };
}

async function main() {
  const { values } = parseArgs({ options: { tickets: { type: 'string', default: '50000' }, messages: { type: 'string', default: '500000' } } });
  const options = { tickets: Number(values.tickets), messages: Number(values.messages) };
  const url = process.env.DATABASE_URL;
  const database = await openDatabase({ url, dataDir: url ? undefined : path.join(process.env.DATA_DIR ?? './data-bench', 'pglite') });
  await database.migrate();
  const started = performance.now();
  const result = await seedBench(database, options);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ ...result, seconds: Number(seconds.toFixed(1)), phasesMs: phases, database: database.kind }));
  await database.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
