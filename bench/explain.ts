/**
 * `npm run bench:explain`: writes bench/explain.md, the EXPLAIN (ANALYZE, BUFFERS)
 * plans of the hot queries on the database a full `npm run bench` leaves behind
 * (`atende_bench`), with the ids of its bench company, agent and heavy ticket.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CONVERSATION_PAGE } from '../apps/server/src/modules/messages/messages.repo.js';
import { PRESENTED_TICKETS } from '../apps/server/src/modules/tickets/tickets.repo.js';
import { BENCH_ADMIN } from './seed.js';

const { values: args } = parseArgs({
  options: { url: { type: 'string', default: process.env.BENCH_DB_URL ?? 'postgres://postgres@127.0.0.1:5432/atende_bench' } },
});

const client = new pg.Client({ connectionString: args.url });
await client.connect();
const one = async (text: string, values: unknown[] = []) => ((await client.query(text, values)).rows[0] ?? {}) as Record<string, unknown>;

const { company_id: companyId } = await one('select company_id from users where email = $1', [BENCH_ADMIN.email]);
const { id: agentId } = await one(`select id from users where email = 'bench-agent-1@atende.local'`);
const { queue_ids: queueIds } = await one('select array_agg(queue_id) as queue_ids from user_queues where user_id = $1', [agentId]);
const { id: heavyTicket, contact_id: heavyContact, whatsapp_id: connection } = await one(
  'select t.id, t.contact_id, t.whatsapp_id from tickets t where t.company_id = $1 order by (select count(*) from messages m where m.ticket_id = t.id) desc limit 1',
  [companyId],
);
const detailIds = (await client.query('select id from tickets where company_id = $1 order by id limit 20', [companyId])).rows.map((r: { id: number }) => r.id);
const queues = `'{${(queueIds as number[] | null)?.join(',') ?? ''}}'::int[]`;
const order = 'order by (t.unread_messages > 0) desc, t.updated_at desc, t.id desc';

/**
 * The ticket search of tickets.repo.ts (open tab, showAll) with its values inlined,
 * the words and the pattern through sub-selects as the API sends them (`planOnce`).
 */
function searchQuery(term: string): string {
  const byName = `select ct.id from contacts ct where ct.company_id = ${companyId} and (lower(ct.name) like (select '%${term}%'::text))`;
  const bySaid = `select mt.ticket_id from message_terms mt where mt.company_id = ${companyId} and mt.term = any((select message_words('${term}'))::text[])`;
  return `select t.id from tickets t where t.company_id = ${companyId} and t.status = 'open' and (t.contact_id in (${byName}) or t.id in (${bySaid})) ${order} limit 21`;
}

const queries: [title: string, sql: string][] = [
  ['ticket list (open tab, showAll)', `select t.id from tickets t where t.company_id = ${companyId} and t.status = 'open' ${order} limit 21`],
  [
    "ticket list (agent view: own or pending, own queues)",
    `select t.id from tickets t where t.company_id = ${companyId} and t.status = 'pending' and ((t.user_id = ${agentId} or t.status = 'pending') and (t.queue_id is null or t.queue_id = any(${queues}))) ${order} limit 21`,
  ],
  ['ticket search (name/number trigrams, message words)', searchQuery('brastemp')],
];

/** Statements the API prepares, explained as PostgreSQL runs them: prepared, with these values. */
const prepared: [title: string, sql: string, values: unknown[]][] = [
  ['ticket list page presented as JSON (20 tickets, presentTicketsInDatabase)', PRESENTED_TICKETS, [companyId, `{${detailIds.join(',')}}`]],
  [`conversation page presented as JSON (heavy ticket ${String(heavyTicket)}, pageConversation)`, CONVERSATION_PAGE, [companyId, heavyContact, 21, 0, connection]],
];

const planOf = async (text: string) =>
  (await client.query(`explain (analyze, buffers) ${text}`)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
const sections: string[] = [];
for (const [title, text] of queries) {
  sections.push(`## ${title}\n\n\`\`\`sql\n${text};\n\`\`\`\n\n\`\`\`\n${await planOf(text)}\n\`\`\``);
}
for (const [index, [title, text, values]] of prepared.entries()) {
  await client.query(`prepare explained_${index} as ${text}`);
  const execute = `execute explained_${index}(${values.map((value) => `'${String(value)}'`).join(', ')})`;
  sections.push(`## ${title}\n\n\`\`\`sql\n${text.trim()};\n-- ${execute}\n\`\`\`\n\n\`\`\`\n${await planOf(execute)}\n\`\`\``);
}
const { server_version: version } = await one('show server_version');
await client.end();

const header = `# EXPLAIN (ANALYZE) at benchmark size

Written by \`npm run bench:explain\` on ${new Date().toISOString().slice(0, 10)}, on the database \`npm run bench\` leaves behind
(50k contacts and tickets, 500k messages, PostgreSQL ${String(version)}); company ${String(companyId)} is the bench company.
The statements are the ones the API sends (tickets.repo.ts, messages.repo.ts), with the values inlined.`;
const file = path.resolve(import.meta.dirname, 'explain.md');
writeFileSync(file, `${header}\n\n${sections.join('\n\n')}\n`);
console.log(`written ${path.relative(process.cwd(), file)}`);
