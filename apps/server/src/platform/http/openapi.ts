import {
  ERROR_STATUS,
  ErrorResponseSchema,
  NAMED_ANSWER_SCHEMAS,
  ROUTE_ANSWERS,
  routeKey,
  routeRole,
  routeScope,
  type ErrorCode,
  type RouteAnswer,
  type RouteRole,
  type RouteSuccess,
} from '@atende/shared';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';

/**
 * The OpenAPI 3.1 document of every route (`GET /openapi.json`), generated from what
 * the app really registers: each route's method and path, the zod schemas of its
 * params, query and body (`schema: { params, querystring, body }`), its least role
 * (`ROUTE_ROLES`), and the answer table `ROUTE_ANSWERS` (packages/shared): success
 * bodies as zod schemas the presenters' types derive from, bodies read by hand
 * (multipart), and the domain error codes. Nothing is written twice: a route added to
 * the app appears here, and the OpenAPI test fails if one does not.
 *
 * Built once, on the first request, from the routes seen through `onRoute`.
 */

type Json = Record<string, unknown>;
type JsonSchema = Json;

interface ZodSchemas {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
}

interface SeenRoute {
  method: string;
  url: string;
  schema: ZodSchemas;
  allowExpiredCompany: boolean;
}

export interface OpenApiDocument extends Json {
  openapi: string;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Json };
}

export interface OpenApi {
  /** Give every route to it (`app.addHook('onRoute', openApi.onRoute)`), before the routes are registered. */
  onRoute: (route: RouteOptions) => void;
  /** The document, built on first use and kept. */
  document: () => OpenApiDocument;
  /** The document as JSON text, written once (about half a megabyte). */
  json: () => string;
  /** `METHOD /path` (the route tables' key) of every route it saw. */
  routeKeys: () => string[];
}

/** The answer schemas the document names (components/schemas), so each is written once. */
function nameAnswers(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  registry.add(ErrorResponseSchema, { id: 'ErrorResponse' });
  for (const [name, schema] of Object.entries(NAMED_ANSWER_SCHEMAS)) registry.add(schema, { id: name });
  return registry;
}

const ROLE_TEXT: Record<RouteRole, string> = {
  public: 'Public: no session.',
  user: 'Any signed-in user of the company.',
  admin: 'Admins of the company (profile admin).',
  super: "The platform's super users.",
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export interface OpenApiInfo {
  version: string;
}

export function createOpenApi(info: OpenApiInfo): OpenApi {
  const routes: SeenRoute[] = [];
  let built: OpenApiDocument | null = null;
  let text: string | null = null;
  return {
    onRoute(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        const schema = (route.schema ?? {}) as ZodSchemas;
        const config = (route.config ?? {}) as { allowExpiredCompany?: boolean };
        routes.push({ method, url: route.url, schema, allowExpiredCompany: config.allowExpiredCompany === true });
      }
    },
    document() {
      built ??= buildDocument(info, routes);
      return built;
    },
    json() {
      text ??= JSON.stringify(this.document());
      return text;
    },
    routeKeys: () => routes.map((route) => routeKey(route.method, route.url)),
  };
}

/** Turns zod schemas into JSON Schema, hoisting named ones into components/schemas. */
class SchemaWriter {
  readonly components: Record<string, JsonSchema> = {};
  private readonly registry = nameAnswers();
  private cycles = 0;

  write(schema: unknown, io: 'input' | 'output'): JsonSchema {
    // Every route's schemas are zod (the app's validator compiler runs only zod); anything else is shown as "any".
    if (!(schema instanceof z.ZodType)) return {};
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      metadata: io === 'output' ? this.registry : undefined,
    }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    const renamed = new Map<string, string>();
    for (const name of Object.keys(defs)) renamed.set(name, name.startsWith('__') ? `Recursive${++this.cycles}` : name);
    const fix = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(fix);
      if (node === null || typeof node !== 'object') return node;
      const out: Json = {};
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
          out.$ref = `#/components/schemas/${renamed.get(value.slice('#/$defs/'.length)) ?? value.slice('#/$defs/'.length)}`;
        } else if (key === '$ref' && value === '#') {
          // zod's self-reference of a recursive root: not expected in our schemas.
          throw new Error('openapi: a recursive root schema cannot be documented');
        } else {
          out[key] = fix(value);
        }
      }
      return out;
    };
    for (const [name, def] of Object.entries(defs)) this.components[renamed.get(name)!] ??= fix(def) as JsonSchema;
    return fix(json) as JsonSchema;
  }
}

function openApiPath(url: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = url
    .split('/')
    .map((segment) => {
      if (segment === '*') {
        names.push('wildcard');
        return '{wildcard}';
      }
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      names.push(name);
      return `{${name}}`;
    })
    .join('/');
  return { path, names };
}

function operationId(method: string, url: string, taken: Set<string>): string {
  const words = url
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  const base = method.toLowerCase() + (words.join('') || 'Root');
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}${n}`;
  taken.add(id);
  return id;
}

function tagOf(url: string): string {
  const first = url.split('/').find((segment) => segment !== '' && !segment.startsWith(':')) ?? 'root';
  return first === 'api' ? 'external-api' : first;
}

function propertiesOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string> } {
  return {
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: new Set((schema.required ?? []) as string[]),
  };
}

/** The codes a route can answer whatever it does, from what the document knows of it. */
function commonErrors(route: SeenRoute, role: RouteRole, answer: RouteAnswer | undefined): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const validates = route.schema.params !== undefined || route.schema.querystring !== undefined || route.schema.body !== undefined || answer?.body !== undefined;
  if (validates || BODY_METHODS.has(route.method)) codes.push('ERR_VALIDATION');
  if (role !== 'public') {
    codes.push('ERR_SESSION_EXPIRED', 'ERR_COMPANY_SUSPENDED');
    if (!route.allowExpiredCompany) codes.push('ERR_SUBSCRIPTION_EXPIRED');
    if (role === 'admin' || role === 'super') codes.push('ERR_NO_PERMISSION');
  }
  if (route.url.includes(':') || route.url.includes('*')) codes.push('ERR_NOT_FOUND');
  if (BODY_METHODS.has(route.method)) codes.push('ERR_PAYLOAD_TOO_LARGE', 'ERR_STORAGE_FULL');
  codes.push('ERR_INTERNAL_SERVER_ERROR', 'ERR_SERVICE_UNAVAILABLE');
  return codes;
}

/**
 * The error answers by status. With the route's own codes in the answer table (`complete`),
 * each status's `error` is narrowed to its codes; otherwise the codes listed are the ones
 * every route of its kind answers, and `default` stands for the route's own.
 */
function errorResponses(codes: ErrorCode[], complete: boolean): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const envelope = { $ref: '#/components/schemas/ErrorResponse' };
  const responses: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: complete ? list.join(', ') : `${list.join(', ')}, or a code of the route's own`,
      'x-error-codes': list,
      content: { 'application/json': { schema: complete ? { allOf: [envelope, { type: 'object', properties: { error: { enum: list } } }] } : envelope } },
    };
  }
  responses.default = { description: "The route's other errors (the error envelope).", content: { 'application/json': { schema: envelope } } };
  return responses;
}

/** Media types whose body is text: shown as a string; any other non-JSON body is bytes (no schema, as OpenAPI 3.1 has it). */
const TEXT_MEDIA = /^text\/|^application\/(javascript|xml)/;

/** One success answer: a JSON body by its schema, a body of other media types (a file, text), or none (204). */
function successResponse(success: RouteSuccess, writer: SchemaWriter): Json {
  const description = success.description ?? (success.schema || success.media ? 'Success' : 'Success, no body');
  if (success.schema) return { description, content: { 'application/json': { schema: writer.write(success.schema, 'output') } } };
  if (success.media) return { description, content: Object.fromEntries(success.media.map((type) => [type, TEXT_MEDIA.test(type) ? { schema: { type: 'string' } } : {}])) };
  return { description };
}

/** The payment providers' stand-ins (`PIX_PROVIDER=fake`, tests and demos) answer in those providers' shapes. */
function isProviderStandIn(url: string): boolean {
  return url.startsWith('/fake-');
}

function requestBody(route: SeenRoute, answer: RouteAnswer | undefined, writer: SchemaWriter): Json | undefined {
  const schema = route.schema.body ?? answer?.body?.schema;
  if (schema === undefined) return undefined;
  const json = writer.write(schema, 'input');
  const content: Json = { 'application/json': { schema: json } };
  const files = answer?.body?.multipart?.files;
  if (files) {
    const { properties, required } = propertiesOf(json);
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        properties: { ...properties, [files]: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        ...(required.size > 0 ? { required: [...required] } : {}),
      },
    };
  }
  return { required: true, content };
}

function parameters(route: SeenRoute, names: string[], writer: SchemaWriter): Json[] {
  const list: Json[] = [];
  const path = route.schema.params === undefined ? { properties: {}, required: new Set<string>() } : propertiesOf(writer.write(route.schema.params, 'input'));
  for (const name of names) {
    const fastifyName = name === 'wildcard' ? '*' : name;
    const schema = path.properties[fastifyName] ?? { type: 'string' };
    list.push({ name, in: 'path', required: true, schema, ...(name === 'wildcard' ? { description: 'The rest of the path.' } : {}) });
  }
  if (route.schema.querystring !== undefined) {
    const query = propertiesOf(writer.write(route.schema.querystring, 'input'));
    for (const [name, schema] of Object.entries(query.properties)) {
      list.push({ name, in: 'query', required: query.required.has(name), schema });
    }
  }
  return list;
}

function buildDocument(info: OpenApiInfo, routes: SeenRoute[]): OpenApiDocument {
  const writer = new SchemaWriter();
  writer.write(ErrorResponseSchema, 'output');
  const paths: Record<string, Record<string, Json>> = {};
  const taken = new Set<string>();
  const sorted = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const key = routeKey(route.method, route.url);
    const role = routeRole(key) ?? 'user';
    const answer = (ROUTE_ANSWERS as Record<string, RouteAnswer | undefined>)[key];
    const { path, names } = openApiPath(route.url);
    const responses: Record<string, Json> = {};
    for (const [status, success] of Object.entries(answer?.answers ?? {})) responses[status] = successResponse(success, writer);
    // Every route declares its answers (the OpenAPI test fails otherwise); `{}` is a route that never succeeds.
    if (answer?.answers === undefined) responses['200'] = { description: 'Success (its body is not described yet)' };
    const scope = answer?.credential === 'connectionToken' || role === 'public' ? undefined : routeScope(key);
    const keyErrors: ErrorCode[] = scope ? ['ERR_INVALID_API_KEY', 'ERR_API_KEY_SCOPE', 'ERR_TOO_MANY_REQUESTS'] : [];
    if (!isProviderStandIn(route.url)) {
      const errors = errorResponses([...commonErrors(route, role, answer), ...keyErrors, ...(answer?.errors ?? [])], answer?.errors !== undefined);
      // A status the route answers with a body of its own (`GET /health`'s 503) keeps it.
      for (const [status, response] of Object.entries(errors)) responses[status] ??= response;
    }
    const security =
      answer?.credential === 'connectionToken' ? [{ connectionToken: [] }] : role === 'public' ? [] : [{ userToken: [] }, ...(scope ? [{ apiKey: [scope] }] : [])];
    const body = requestBody(route, answer, writer);
    const params = parameters(route, names, writer);
    const operation: Json = {
      operationId: operationId(route.method, route.url, taken),
      tags: [tagOf(route.url)],
      ...(answer?.summary ? { summary: answer.summary } : {}),
      description: isProviderStandIn(route.url)
        ? "A stand-in of a payment provider's API (PIX_PROVIDER=fake, for tests and demos); it answers in that provider's shapes."
        : answer?.credential === 'connectionToken'
          ? "The connection's API token (Bearer)."
          : ROLE_TEXT[role] + (scope ? ` Or a company API key with the scope \`${scope}\`.` : ''),
      'x-role': role,
      ...(scope ? { 'x-scopes': [scope] } : {}),
      security,
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      responses,
    };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Atende API',
      version: info.version,
      description:
        'Every HTTP route of this Atende server, generated from its route table and zod schemas. ' +
        'Errors answer the envelope `ErrorResponse` (`{ "error": "ERR_...", "message"?, "fields"? }`); each error code has one HTTP status. ' +
        '`x-role` is the least role that may call a route; `x-scopes`, on the routes a company API key may call, the scope the key needs ' +
        '(the `apiKey` requirement names it too). Any other route refuses every key (403 `ERR_API_KEY_ROUTE`).',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: writer.components,
      securitySchemes: {
        userToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A user's access token: `token` of `POST /auth/login`, renewed by `POST /auth/refresh_token` (the refresh cookie).",
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'atk_…',
          description:
            'A company API key (`atk_…`, made by an admin in Settings → API keys, `POST /api-keys`), sent as `Authorization: Bearer atk_…`. ' +
            "It acts as the admin who made it, narrowed to its scopes; it reaches only the operations whose `apiKey` requirement names one of them (`x-scopes`). " +
            'Unknown, revoked or expired keys: 401 `ERR_INVALID_API_KEY`; a scope missing: 403 `ERR_API_KEY_SCOPE`; any other route: 403 `ERR_API_KEY_ROUTE`; each key has its own rate limit (429 `ERR_TOO_MANY_REQUESTS`, `Retry-After`).',
        },
        connectionToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A connection's API token (the connection's edit dialog): `POST /api/messages/send` only.",
        },
      },
    },
  };
}
