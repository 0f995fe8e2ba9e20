/**
 * `npm run bench:explain`: writes bench/explain.md, the EXPLAIN (ANALYZE, BUFFERS)
 * plans of the hot queries on the database a full `npm run bench` leaves behind
 * (`atende_bench`), with the ids of its bench company, agent and heavy ticket.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadSession } from '../apps/server/src/modules/auth/session.repo.js';
import { CONVERSATION_PAGE } from '../apps/server/src/modules/messages/messages.repo.js';
import { listTickets, PRESENTED_TICKETS, type TicketListFilters } from '../apps/server/src/modules/tickets/tickets.repo.js';
import { openDatabase, type SqlExecutor } from '../apps/server/src/platform/db/client.js';
import type { RequestContext } from '../apps/server/src/platform/http/context.js';
import { BENCH_ADMIN } from './seed.js';

const { values: args } = parseArgs({
  options: { url: { type: 'string', default: process.env.BENCH_DB_URL ?? 'postgres://postgres@127.0.0.1:5432/atende_bench' } },
});

// One connection, so that each statement's PREPARE and EXECUTE meet.
const database = await openDatabase({ url: args.url, poolSize: 1 });
const query = async (text: string, values: unknown[] = []) => (await database.sql.executeSql(text, values)).rows;
const one = async (text: string, values: unknown[] = []) => (await query(text, values))[0] ?? {};

const { id: adminId, company_id: companyId } = await one('select id, company_id from users where email = $1', [BENCH_ADMIN.email]);
const { id: agentId } = await one(`select id from users where email = 'bench-agent-1@atende.local'`);
const { id: heavyTicket, contact_id: heavyContact, whatsapp_id: connection } = await one(
  'select t.id, t.contact_id, t.whatsapp_id from tickets t where t.company_id = $1 order by (select count(*) from messages m where m.ticket_id = t.id) desc limit 1',
  [companyId],
);
const detailIds = (await query('select id from tickets where company_id = $1 order by id limit 20', [companyId])).map((r) => Number(r.id));

async function session(userId: unknown): Promise<RequestContext> {
  const ctx = await loadSession(database.db, Number(userId));
  if (!ctx) throw new Error(`no user ${String(userId)}: run a full \`npm run bench\` first`);
  return ctx;
}
const [admin, agent] = [await session(adminId), await session(agentId)];

/** The statement `listTickets` sends for these filters (its ids query), caught on its way to the database. */
async function ticketListStatement(ctx: RequestContext, filters: Partial<TicketListFilters>): Promise<[text: string, values: unknown[]]> {
  let caught: [string, unknown[]] | undefined;
  const catcher: SqlExecutor = {
    executeSql: (text, values = []) => {
      caught ??= [text, values];
      return Promise.resolve({ rows: [] });
    },
  };
  await listTickets({ sql: catcher }, ctx, { searchParam: '', pageNumber: 1, showAll: false, withUnreadMessages: false, ...filters });
  if (!caught) throw new Error('listTickets sent no statement');
  return caught;
}

/** Statements the API prepares, explained as PostgreSQL runs them: prepared, with these values. */
const prepared: [title: string, sql: string, values: unknown[]][] = [
  ['ticket list (open tab, showAll)', ...(await ticketListStatement(admin, { status: 'open', showAll: true }))],
  ['ticket list (agent view: own or pending, own queues)', ...(await ticketListStatement(agent, { status: 'pending' }))],
  ['ticket search (name/number trigrams, message words)', ...(await ticketListStatement(admin, { status: 'open', showAll: true, searchParam: 'brastemp' }))],
  ['ticket list page presented as JSON (20 tickets, presentTicketsInDatabase)', PRESENTED_TICKETS, [companyId, `{${detailIds.join(',')}}`]],
  [`conversation page presented as JSON (heavy ticket ${String(heavyTicket)}, pageConversation)`, CONVERSATION_PAGE, [companyId, heavyContact, 21, 0, connection]],
];

const planOf = async (text: string) =>
  (await query(`explain (analyze, buffers) ${text}`)).map((r) => String(r['QUERY PLAN'])).join('\n');
const literal = (value: unknown) => (value === null ? 'null' : `'${String(value).replaceAll("'", "''")}'`);
const sections: string[] = [];
for (const [index, [title, text, values]] of prepared.entries()) {
  await query(`prepare explained_${index} as ${text}`);
  const execute = `execute explained_${index}(${values.map(literal).join(', ')})`;
  sections.push(`## ${title}\n\n\`\`\`sql\n${text.trim()};\n-- ${execute}\n\`\`\`\n\n\`\`\`\n${await planOf(execute)}\n\`\`\``);
}
const { server_version: version } = await one('show server_version');
// The size as found, not as intended: a smoke run (CI's) leaves a smaller database under the same name.
const { contacts, tickets, messages } = await one(
  'select (select count(*) from contacts where company_id = $1) as contacts, (select count(*) from tickets where company_id = $1) as tickets, (select count(*) from messages where company_id = $1) as messages',
  [companyId],
);
const thousands = (count: unknown) => `${String(Math.round(Number(count) / 1000))}k`;
await database.close();

const header = `# EXPLAIN (ANALYZE) at benchmark size

Written by \`npm run bench:explain\` on ${new Date().toISOString().slice(0, 10)}, on the database \`npm run bench\` leaves behind
(${thousands(contacts)} contacts, ${thousands(tickets)} tickets, ${thousands(messages)} messages, PostgreSQL ${String(version)}); company ${String(companyId)} is the bench company.
The statements are the ones the API sends (the ticket lists caught from \`listTickets\`, the pages' statements of
tickets.repo.ts and messages.repo.ts), prepared and executed with the values shown.`;
const file = path.resolve(import.meta.dirname, 'explain.md');
writeFileSync(file, `${header}\n\n${sections.join('\n\n')}\n`);
console.log(`written ${path.relative(process.cwd(), file)}`);
