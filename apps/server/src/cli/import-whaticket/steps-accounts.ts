import { DEFAULT_SETTINGS, isAllowedSettingValue, isSettingKey, settingVisibility } from '@atende/shared';
import { sql } from 'drizzle-orm';
import {
  baileysAuthKeys,
  companies,
  plans,
  prompts,
  queueIntegrations,
  queueOptions,
  queues,
  settings,
  userQueues,
  users,
  whatsappQueues,
  whatsapps,
} from '../../platform/db/schema.js';
import type { Finisher, Outcome, Step } from './run.js';
import { convertSession } from './session.js';
import { insertRows, queryRows } from './target.js';
import { bool, cents, dueDay, idOf, instantOr, int, lookup, mappedOf, optionalText, skip, text } from './values.js';

type Insert = Extract<Outcome, { kind: 'insert' }>;

/** Plans are platform rows: one of the same name already in Atende stands for it. */
const plansStep: Step = {
  table: 'Plans',
  target: 'plans',
  into: plans,
  columns: (s) =>
    ['id', 'name', 'users', 'connections', 'queues', 'value', 'useCampaigns', 'useKanban', 'useOpenAi', 'useIntegrations', 'useSchedules', 'useInternalChat', 'useExternalApi', 'createdAt', 'updatedAt']
      .map((c) => s.column('Plans', c, c === 'name' ? 'text' : c.startsWith('use') ? 'boolean' : c.endsWith('At') ? 'timestamptz' : 'numeric'))
      .join(', '),
  async prepare(rows, context) {
    const names = rows.map((row) => text(row.name));
    const existing = await queryRows<{ id: number; name: string }>(context.database.db, sql`select id, name from plans where name = any(${sql.param(names)}::text[])`);
    const byName = new Map(existing.map((row) => [row.name, Number(row.id)]));
    const fresh = rows.filter((row) => !byName.has(text(row.name)));
    const ids = await context.map.allocate(plans, fresh.length);
    return rows.map((row): Outcome => {
      const match = byName.get(text(row.name));
      if (match !== undefined) return { kind: 'match', sourceId: idOf(row), companyId: null, id: match, note: 'a plan of the same name already in Atende' };
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: null,
        row: {
          id: ids.shift(),
          name: text(row.name),
          users: int(row.users),
          connections: int(row.connections),
          queues: int(row.queues),
          value_cents: cents(row.value),
          use_campaigns: bool(row.useCampaigns, true),
          use_kanban: bool(row.useKanban, true),
          use_open_ai: bool(row.useOpenAi, true),
          use_integrations: bool(row.useIntegrations, true),
          use_schedules: bool(row.useSchedules, true),
          use_internal_chat: bool(row.useInternalChat, true),
          use_external_api: bool(row.useExternalApi, true),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** Companies arrive hidden (`importing`) with Atende's default settings; whaticket's own settings follow. */
const companiesStep: Step = {
  table: 'Companies',
  target: 'companies, settings (defaults)',
  columns: (s) =>
    [
      s.column('Companies', 'name'),
      s.column('Companies', 'email'),
      s.column('Companies', 'phone'),
      s.column('Companies', 'planId', 'int'),
      s.column('Companies', 'status', 'boolean'),
      s.column('Companies', 'schedules', 'jsonb'),
      s.column('Companies', 'dueDate', 'timestamptz'),
      s.column('Companies', 'recurrence'),
      s.column('Companies', 'createdAt', 'timestamptz'),
      s.column('Companies', 'updatedAt', 'timestamptz'),
    ].join(', '),
  async prepare(rows, context) {
    const planMap = await lookup(context, 'Plans', rows, 'planId');
    const [fallback] = await queryRows<{ id: number }>(context.database.db, sql`select id from plans order by id limit 1`);
    const ids = await context.map.allocate(companies, rows.length);
    return rows.map((row, i): Outcome => {
      const plan = mappedOf(planMap, row.planId);
      const planId = plan?.id ?? (fallback ? Number(fallback.id) : undefined);
      if (planId === undefined) return skip(idOf(row), 'no plan to give it (the whaticket plan was not imported and Atende has none)');
      const id = ids[i]!;
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: id,
        note: plan ? undefined : "its plan was not imported: given Atende's first plan",
        row: {
          id,
          name: text(row.name),
          email: text(row.email),
          phone: text(row.phone),
          plan_id: planId,
          status: bool(row.status, true),
          due_date: dueDay(row.dueDate),
          recurrence: text(row.recurrence) || 'MENSAL',
          schedules: Array.isArray(row.schedules) ? row.schedules : [],
          importing: true,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
  async write(tx, inserts) {
    await insertRows(
      tx,
      companies,
      inserts.map((o) => o.row),
    );
    const ids = JSON.stringify(inserts.map((o) => ({ id: o.row.id })));
    await tx.execute(sql`insert into settings (company_id, key, value)
      select c.id, d.key, d.value from jsonb_to_recordset(${ids}::jsonb) as c(id int)
      cross join jsonb_to_recordset(${JSON.stringify(DEFAULT_SETTINGS)}::jsonb) as d(key text, value text)
      on conflict (company_id, key) do nothing`);
  },
};

/** Whaticket's settings over Atende's defaults, for the keys Atende knows and the values it allows. */
const settingsStep: Step = {
  table: 'Settings',
  target: 'settings',
  columns: () => 't.key, t.value, t."companyId"',
  async prepare(rows, context) {
    const companyMap = await lookup(context, 'Companies', rows, 'companyId');
    const unknownKeys = new Set<string>();
    const outcomes = rows.map((row): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      const key = text(row.key);
      const value = text(row.value);
      if (!company) return skip(idOf(row), 'its company was not imported');
      if (!isSettingKey(key)) {
        unknownKeys.add(key);
        return skip(idOf(row), 'a whaticket setting Atende does not have');
      }
      if (settingVisibility(key) === 'secret') return skip(idOf(row), 'a secret (enter it again in Atende)');
      if (!isAllowedSettingValue(key, value)) return skip(idOf(row), `a value Atende does not allow for ${key}`);
      return { kind: 'insert', sourceId: idOf(row), companyId: company.id, row: { company_id: company.id, key, value } };
    });
    return outcomes;
  },
  async write(tx, inserts) {
    await insertRows(
      tx,
      settings,
      inserts.map((o) => o.row),
      { onConflict: sql`on conflict (company_id, key) do update set value = excluded.value, updated_at = now()` },
    );
  },
};

const queuesStep: Step = {
  table: 'Queues',
  target: 'queues',
  into: queues,
  columns: (s) =>
    [
      't.name',
      't.color',
      s.column('Queues', 'greetingMessage'),
      s.column('Queues', 'outOfHoursMessage'),
      s.column('Queues', 'orderQueue', 'int'),
      s.column('Queues', 'schedules', 'jsonb'),
      't."companyId"',
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const companyMap = await lookup(context, 'Companies', rows, 'companyId');
    const ids = await context.map.allocate(queues, rows.length);
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) return skip(idOf(row), 'its company was not imported');
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        row: {
          id: ids[i],
          company_id: company.id,
          name: text(row.name),
          color: text(row.color),
          order_queue: row.orderQueue === null ? null : int(row.orderQueue),
          greeting_message: text(row.greetingMessage),
          out_of_hours_message: text(row.outOfHoursMessage),
          schedules: Array.isArray(row.schedules) ? row.schedules : [],
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** The chatbot's option tree: a parent comes before its children (lower id), in this page or an earlier one. */
const queueOptionsStep: Step = {
  table: 'QueueOptions',
  target: 'queue_options',
  into: queueOptions,
  columns: (s) =>
    ['t.title', 't.message', 't.option', 't."queueId"', 't."parentId"', s.column('QueueOptions', 'mediaPath'), 't."createdAt"', 't."updatedAt"'].join(', '),
  async prepare(rows, context) {
    const queueMap = await lookup(context, 'Queues', rows, 'queueId');
    const parentMap = await lookup(context, 'QueueOptions', rows, 'parentId');
    const ids = await context.map.allocate(queueOptions, rows.length);
    const inPage = new Map<string, number>();
    return rows.map((row, i): Outcome => {
      const queue = mappedOf(queueMap, row.queueId);
      if (!queue || queue.companyId === null) return skip(idOf(row), 'its queue was not imported');
      let parentId: number | null = null;
      if (row.parentId !== null) {
        parentId = mappedOf(parentMap, row.parentId)?.id ?? inPage.get(String(row.parentId)) ?? null;
        if (parentId === null) return skip(idOf(row), 'its parent option was not imported');
      }
      const id = ids[i]!;
      inPage.set(idOf(row), id);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: queue.companyId,
        note: text(row.mediaPath) ? "the option's file was not copied (attach it again)" : undefined,
        row: {
          id,
          company_id: queue.companyId,
          queue_id: queue.id,
          parent_id: parentId,
          title: text(row.title),
          message: text(row.message),
          option: text(row.option),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

const INTEGRATION_TYPES = new Set(['dialogflow', 'n8n', 'webhook', 'typebot']);

/** Integrations (Dialogflow, n8n, webhook, Typebot): their credentials sealed by Atende's secret box. */
const integrationsStep: Step = {
  table: 'QueueIntegrations',
  target: 'queue_integrations',
  into: queueIntegrations,
  columns: (s) =>
    [
      't.type',
      't.name',
      't."projectName"',
      't."jsonContent"',
      't.language',
      't."urlN8N"',
      't."companyId"',
      s.column('QueueIntegrations', 'typebotSlug'),
      s.column('QueueIntegrations', 'typebotExpires', 'int'),
      s.column('QueueIntegrations', 'typebotDelayMessage', 'int'),
      s.column('QueueIntegrations', 'typebotKeywordFinish'),
      s.column('QueueIntegrations', 'typebotKeywordRestart'),
      s.column('QueueIntegrations', 'typebotUnknownMessage'),
      s.column('QueueIntegrations', 'typebotRestartMessage'),
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const companyMap = await lookup(context, 'Companies', rows, 'companyId');
    const ids = await context.map.allocate(queueIntegrations, rows.length);
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      const type = text(row.type);
      if (!company) return skip(idOf(row), 'its company was not imported');
      if (!INTEGRATION_TYPES.has(type)) return skip(idOf(row), `a type Atende does not have (${type})`);
      if (!context.secrets) return skip(idOf(row), 'no secret box to seal its credentials');
      const json = text(row.jsonContent);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        row: {
          id: ids[i],
          company_id: company.id,
          type,
          name: text(row.name),
          project_name: text(row.projectName),
          json_content_sealed: json ? context.secrets.seal(json) : '',
          language: text(row.language) || 'pt-BR',
          // Its migration gave urlN8N the default `true`, written as the text "true" where none was typed.
          url_n8n: text(row.urlN8N) === 'true' ? '' : text(row.urlN8N),
          typebot_slug: text(row.typebotSlug),
          typebot_expires: int(row.typebotExpires, 1),
          typebot_delay_message: int(row.typebotDelayMessage, 1000),
          typebot_keyword_finish: text(row.typebotKeywordFinish),
          typebot_keyword_restart: text(row.typebotKeywordRestart),
          typebot_unknown_message: text(row.typebotUnknownMessage),
          typebot_restart_message: text(row.typebotRestartMessage),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** OpenAI prompts: the API key sealed by Atende's secret box; Atende's default model. */
const promptsStep: Step = {
  table: 'Prompts',
  target: 'prompts',
  into: prompts,
  columns: () => 't.name, t."apiKey", t.prompt, t."maxTokens", t."maxMessages", t.temperature, t."queueId", t."companyId", t."createdAt", t."updatedAt"',
  async prepare(rows, context) {
    const [companyMap, queueMap] = await Promise.all([lookup(context, 'Companies', rows, 'companyId'), lookup(context, 'Queues', rows, 'queueId')]);
    const ids = await context.map.allocate(prompts, rows.length);
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) return skip(idOf(row), 'its company was not imported');
      if (!context.secrets) return skip(idOf(row), 'no secret box to seal its API key');
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        row: {
          id: ids[i],
          company_id: company.id,
          name: text(row.name),
          prompt: text(row.prompt),
          max_tokens: int(row.maxTokens, 100),
          max_messages: int(row.maxMessages, 10),
          temperature: Number(row.temperature ?? 1),
          api_key_sealed: context.secrets.seal(text(row.apiKey)),
          queue_id: mappedOf(queueMap, row.queueId)?.id ?? null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** A queue's prompt or integration, set once both are imported (queues come first: prompts name their queue). */
export const queueLinksFinisher: Finisher = {
  name: 'Queues.promptId/integrationId',
  async run(context, report) {
    // An older v6 without these columns has nothing to link.
    const prompt = context.source.column('Queues', 'promptId', 'int');
    const integration = context.source.column('Queues', 'integrationId', 'int');
    if (prompt.startsWith('null') && integration.startsWith('null')) return;
    const pages = context.source.pages('Queues', { columns: `${prompt}, ${integration}`, key: ['id'], size: 1000 });
    for await (const page of pages) {
      report.source += page.length;
      const [queueMap, promptMap, integrationMap] = await Promise.all([
        context.map.lookup(
          'Queues',
          page.map((row) => idOf(row)),
        ),
        lookup(context, 'Prompts', page, 'promptId'),
        lookup(context, 'QueueIntegrations', page, 'integrationId'),
      ]);
      const updates = page.flatMap((row) => {
        const queue = queueMap.get(idOf(row));
        if (!queue || (row.promptId === null && row.integrationId === null)) return [];
        return [{ id: queue.id, p: mappedOf(promptMap, row.promptId)?.id ?? null, i: mappedOf(integrationMap, row.integrationId)?.id ?? null }];
      });
      report.imported += updates.length;
      if (context.dryRun || updates.length === 0) continue;
      const changed = await queryRows<{ id: number }>(
        context.database.db,
        sql`update queues q set prompt_id = coalesce(q.prompt_id, u.p), integration_id = coalesce(q.integration_id, u.i)
          from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as u(id int, p int, i int)
          where q.id = u.id and ((q.prompt_id is null and u.p is not null) or (q.integration_id is null and u.i is not null))
          returning q.id`,
      );
      report.added += changed.length;
    }
  },
};

/**
 * Connections arrive DISCONNECTED, to be paired again; a stored Baileys session that
 * converts is kept, and the connection starts by itself once the import completes.
 */
const whatsappsStep: Step = {
  table: 'Whatsapps',
  target: 'whatsapps, baileys_auth_keys',
  pageSize: 20,
  columns: (s) =>
    [
      't.name',
      s.column('Whatsapps', 'session'),
      s.column('Whatsapps', 'isDefault', 'boolean'),
      s.column('Whatsapps', 'token'),
      s.column('Whatsapps', 'number'),
      s.column('Whatsapps', 'greetingMessage'),
      s.column('Whatsapps', 'complationMessage'),
      s.column('Whatsapps', 'outOfHoursMessage'),
      s.column('Whatsapps', 'ratingMessage'),
      s.column('Whatsapps', 'expiresInactiveMessage'),
      s.column('Whatsapps', 'expiresTicket', 'int'),
      s.column('Whatsapps', 'timeUseBotQueues', 'int'),
      s.column('Whatsapps', 'maxUseBotQueues', 'int'),
      s.column('Whatsapps', 'timeToTransfer', 'int'),
      s.column('Whatsapps', 'transferQueueId', 'int'),
      s.column('Whatsapps', 'promptId', 'int'),
      s.column('Whatsapps', 'integrationId', 'int'),
      't."companyId"',
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const companyMap = await lookup(context, 'Companies', rows, 'companyId');
    const [queueMap, promptMap, integrationMap] = await Promise.all([
      lookup(context, 'Queues', rows, 'transferQueueId'),
      lookup(context, 'Prompts', rows, 'promptId'),
      lookup(context, 'QueueIntegrations', rows, 'integrationId'),
    ]);
    const tokens = rows.map((row) => text(row.token)).filter((token) => token !== '');
    const taken = new Set(
      (await queryRows<{ token: string }>(context.database.db, sql`select token from whatsapps where token = any(${sql.param(tokens)}::text[])`)).map((r) => r.token),
    );
    const ids = await context.map.allocate(whatsapps, rows.length);
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) return skip(idOf(row), 'its company was not imported');
      const id = ids[i]!;
      let token = optionalText(row.token);
      const notes: string[] = [];
      if (token && taken.has(token)) {
        token = null;
        notes.push('its API token is used by another Atende connection: removed');
      }
      if (token) taken.add(token);
      const session = convertSession(row.session);
      if (session.keys.length > 0) notes.push('Baileys session converted: it reconnects once the import completes');
      else if (session.problem) notes.push(`session not kept (${session.problem}): pair it again`);
      else notes.push('no stored session: pair it again');
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        note: notes.join('; '),
        row: {
          id,
          company_id: company.id,
          name: text(row.name),
          status: 'DISCONNECTED',
          is_default: bool(row.isDefault, false),
          provider: 'beta',
          token,
          number: text(row.number),
          greeting_message: text(row.greetingMessage),
          complation_message: text(row.complationMessage),
          out_of_hours_message: text(row.outOfHoursMessage),
          rating_message: text(row.ratingMessage),
          expires_inactive_message: text(row.expiresInactiveMessage),
          expires_ticket: int(row.expiresTicket),
          time_use_bot_queues: int(row.timeUseBotQueues),
          max_use_bot_queues: int(row.maxUseBotQueues, 3),
          time_to_transfer: int(row.timeToTransfer),
          transfer_queue_id: mappedOf(queueMap, row.transferQueueId)?.id ?? null,
          prompt_id: mappedOf(promptMap, row.promptId)?.id ?? null,
          integration_id: mappedOf(integrationMap, row.integrationId)?.id ?? null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
          // Not a column: the session's rows, written by `write`.
          session_keys: session.keys,
        },
      };
    });
  },
  async write(tx, inserts: Insert[]) {
    const keys = inserts.flatMap((o) =>
      (o.row.session_keys as { key: string; value: string }[]).map((k) => ({ company_id: o.companyId, whatsapp_id: o.row.id, key: k.key, value: k.value })),
    );
    await insertRows(
      tx,
      whatsapps,
      inserts.map(({ row }) => Object.fromEntries(Object.entries(row).filter(([name]) => name !== 'session_keys'))),
    );
    for (let i = 0; i < keys.length; i += 500) await insertRows(tx, baileysAuthKeys, keys.slice(i, i + 500), { onConflict: sql`on conflict do nothing` });
  },
};

const BCRYPT = /^\$2[abxy]\$\d{2}\$/;

/** Users keep their bcrypt hash: the login verifies it and rehashes with argon2 on the first success. */
const usersStep: Step = {
  table: 'Users',
  target: 'users',
  into: users,
  columns: (s) =>
    [
      't.name',
      't.email',
      't."passwordHash"',
      s.column('Users', 'profile'),
      s.column('Users', 'super', 'boolean'),
      s.column('Users', 'allTicket'),
      s.column('Users', 'whatsappId', 'int'),
      't."companyId"',
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const companyMap = await lookup(context, 'Companies', rows, 'companyId');
    const whatsappMap = await lookup(context, 'Whatsapps', rows, 'whatsappId');
    const emails = rows.map((row) => text(row.email).trim().toLowerCase());
    const taken = new Set(
      (await queryRows<{ email: string }>(context.database.db, sql`select email from users where email = any(${sql.param(emails)}::text[])`)).map((r) => r.email),
    );
    const ids = await context.map.allocate(users, rows.length);
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      const email = emails[i]!;
      if (!company) return skip(idOf(row), 'its company was not imported');
      if (!email) return skip(idOf(row), 'no e-mail');
      if (taken.has(email)) return skip(idOf(row), 'its e-mail is already used in Atende (e-mails are unique across the platform)');
      taken.add(email);
      const hash = text(row.passwordHash);
      const profile = row.profile === 'admin' ? 'admin' : 'user';
      const notes = [
        BCRYPT.test(hash) ? '' : 'its password hash is not bcrypt: the user must reset the password',
        row.profile === 'admin' || row.profile === 'user' ? '' : `profile "${text(row.profile)}" became user`,
      ].filter(Boolean);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        note: notes.join('; ') || undefined,
        row: {
          id: ids[i],
          company_id: company.id,
          name: text(row.name),
          email,
          password_hash: hash,
          profile,
          super: bool(row.super, false),
          all_ticket: row.allTicket === 'enabled' ? 'enabled' : 'desabled',
          whatsapp_id: mappedOf(whatsappMap, row.whatsappId)?.id ?? null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** A link table (`UserQueues`, `WhatsappQueues`): both ends must have been imported. */
function linkStep(options: {
  table: string;
  target: string;
  into: typeof userQueues | typeof whatsappQueues;
  left: { column: string; table: string; into: string };
  right: { column: string; table: string; into: string };
}): Step {
  return {
    table: options.table,
    target: options.target,
    key: [options.left.column, options.right.column],
    columns: () => 't."createdAt"',
    async prepare(rows, context) {
      const leftMap = await lookup(context, options.left.table, rows, `k_${options.left.column}`);
      const rightMap = await lookup(context, options.right.table, rows, `k_${options.right.column}`);
      return rows.map((row): Outcome => {
        const sourceId = `${String(row[`k_${options.left.column}`])}:${String(row[`k_${options.right.column}`])}`;
        const left = mappedOf(leftMap, row[`k_${options.left.column}`]);
        const right = mappedOf(rightMap, row[`k_${options.right.column}`]);
        if (!left || !right || left.companyId === null) return skip(sourceId, `its ${!left ? options.left.table : options.right.table} row was not imported`);
        if (left.companyId !== right.companyId) return skip(sourceId, 'its two ends belong to different companies');
        return {
          kind: 'insert',
          sourceId,
          companyId: left.companyId,
          row: { company_id: left.companyId, [options.left.into]: left.id, [options.right.into]: right.id, created_at: instantOr(row.createdAt) },
        };
      });
    },
    async write(tx, inserts) {
      await insertRows(
        tx,
        options.into,
        inserts.map((o) => o.row),
        { onConflict: sql`on conflict do nothing` },
      );
    },
  };
}

export const accountSteps: Step[] = [
  plansStep,
  companiesStep,
  settingsStep,
  queuesStep,
  queueOptionsStep,
  integrationsStep,
  promptsStep,
  whatsappsStep,
  usersStep,
  linkStep({
    table: 'UserQueues',
    target: 'user_queues',
    into: userQueues,
    left: { column: 'userId', table: 'Users', into: 'user_id' },
    right: { column: 'queueId', table: 'Queues', into: 'queue_id' },
  }),
  linkStep({
    table: 'WhatsappQueues',
    target: 'whatsapp_queues',
    into: whatsappQueues,
    left: { column: 'whatsappId', table: 'Whatsapps', into: 'whatsapp_id' },
    right: { column: 'queueId', table: 'Queues', into: 'queue_id' },
  }),
];
