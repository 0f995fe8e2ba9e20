import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import { APP_VERSION } from '@atende/shared';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { createChannelRegistry } from './channels/channel-registry.js';
import type { Config } from './platform/config.js';
import { createApiKeyAuth } from './modules/api-keys/api-key-auth.js';
import { createAuthenticate, createSessionCache } from './modules/auth/authenticate.js';
import { createLoginLimiter } from './modules/auth/login-limiter.js';
import { createTokenService } from './modules/auth/tokens.js';
import { privateModules, publicModules, subscribeModuleEvents } from './app-routes.js';
import type { Database } from './platform/db/client.js';
import type { RequestContext } from './platform/http/context.js';
import { createAccessChanges } from './platform/events/access-changes.js';
import { createDomainEvents } from './platform/events/domain-events.js';
import { requireSession } from './platform/http/auth-hook.js';
import { corsOptions } from './platform/http/cors.js';
import { registerErrorHandler } from './platform/http/error-handler.js';
import { refuseUnsafeInput } from './platform/http/unsafe-input.js';
import { guardRoutesByRole } from './platform/http/route-roles.js';
import { registerWebApp } from './platform/http/web-app.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { zodValidatorCompiler, type ZodTypeProvider } from './platform/http/zod-provider.js';
import { createPublisher } from './platform/realtime/publisher.js';
import type { SocketServer } from './platform/realtime/socket-server.js';
import { registerHealthRoutes } from './platform/http/health.routes.js';
import { createOpenApi } from './platform/http/openapi.js';
import { registerOpenApiRoutes } from './platform/http/openapi.routes.js';
import { observeHttpRequests, registerMetricsRoutes } from './platform/http/metrics.routes.js';
import { requestIdGenerator, sendRequestId } from './platform/http/request-id.js';
import { createMetrics } from './platform/metrics.js';
import { countConnectionsByState } from './modules/connections/connections.repo.js';
import { createConfiguredMediaStore, localMediaFolder } from './platform/storage/configured-media-store.js';
import { createStorageMonitor } from './platform/storage/disk-space.js';
import { createMediaStorage, MAX_MEDIA_BYTES } from './platform/storage/media-storage.js';
import { registerMediaRoutes } from './platform/storage/media.routes.js';
import { createAutoAssigner } from './modules/auto-assign/auto-assign.service.js';
import { createPresence } from './modules/auto-assign/presence.service.js';
import { canSeeTicket, findTicketDetail } from './modules/tickets/tickets.repo.js';
import { loadSession } from './modules/auth/session.repo.js';
import type { Jobs } from './platform/jobs/jobs.js';
import type { AppServices } from './app-services.js';
import { IngestQueue } from './inbound/ingest-queue.js';
import { createInboundReactions } from './automation/inbound-reactions.js';
import { createAutomationRuntime } from './automation/automation-runtime.js';
import { applyOutboundAck, applyOutboundFailure, confirmOutboundByKey } from './outbound/outbound.js';
import { createLogger, requestLogger, type Logger } from './platform/logger.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createSecretBox } from './platform/crypto/secret-box.js';
import { createRateLimiter } from './platform/http/rate-limiter.js';
import type { HttpConnections } from './platform/http/connections.js';
import { createMailer } from './platform/mail/mailer.js';
import { createContactListChecks } from './modules/contact-lists/contact-lists.jobs.js';
import { MAIN_COMPANY_ID } from './modules/companies/companies.service.js';
import { createPayments } from './modules/invoices/payments.js';
import { createOutboundEngine } from './outbound/outbound-engine.js';

export type App = FastifyInstance & { services: AppServices };

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Attach Socket.IO to the HTTP server (default true). */
  realtime?: boolean;
  /** Serve the built web app when present (default true). */
  serveWeb?: boolean;
  /** Durable jobs: pg-boss (main.ts), the manual runner in tests. */
  jobs: Jobs;
  /** The process's logger (main.ts shares its own); made from LOG_LEVEL otherwise. */
  logger?: Logger;
  /** The time the rules read (tests set it). */
  clock?: Clock;
  /** Told of every route as it is registered (the route-table suites read the real table so). */
  onRoute?: (route: RouteOptions) => void;
  /** The listening process's connection rules (cap per address, drain at shutdown; `main.ts`). */
  connections?: HttpConnections;
}

function defaultWebDist(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Both src/ (tsx, tests) and dist/ (bundle) sit two levels under apps/.
  return path.resolve(here, '../../web/dist');
}

export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const app = Fastify({
    // As Fastify's base logger type, so the app's instance type stays the one plugins and scopes take.
    loggerInstance: logger as FastifyBaseLogger,
    // A proxy TRUST_PROXY names may hand its X-Request-Id on; everyone else gets a new id.
    genReqId: requestIdGenerator(config.TRUST_PROXY),
    requestIdHeader: false,
    // The request's logger binds its id, as Fastify's own; the log context (logger.ts) adds its
    // company and user to its lines, and all three to the lines any other area logs for it.
    childLoggerFactory: (parent, bindings, options) => requestLogger(parent.child(bindings, options)),
    // The spec's client writes collection paths with a trailing slash (GET /users/, /settings/): the same route.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Every state of a connection has a bound (docs/operations.md, "Limits and timeouts"): its request
    // headers (from its opening, so a socket that sends nothing is closed too), its whole request, and
    // the wait between requests. Answers have none (Socket.IO's long-polls, slow handlers).
    http: {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      // Node checks those two every 30 s by default; every second keeps the bound close to the setting.
      connectionsCheckingInterval: 1000,
    },
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    // The drain answers 503 itself, with Retry-After (Fastify's own 503 has none).
    return503OnClosing: !options.connections,
    // Only the proxies TRUST_PROXY names may say who the client is (X-Forwarded-For); off by default.
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();

  options.connections?.registerHooks(app);
  // Off without METRICS_TOKEN (a no-op port); the HTTP timing hook must precede every route.
  const metrics = createMetrics({ enabled: config.METRICS_TOKEN !== undefined, logger, info: { version: APP_VERSION, database: database.kind } });
  observeHttpRequests(app, metrics);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(zodValidatorCompiler);
  refuseUnsafeInput(app);
  const mediaStore = createConfiguredMediaStore(config);
  const storage = createStorageMonitor({
    dataDir: config.DATA_DIR,
    minFreeMb: config.DATA_DIR_MIN_FREE_MB,
    databaseServer: database.kind === 'postgres',
    mediaDir: mediaStore.kind === 'local' ? localMediaFolder(config) : null,
  });
  registerErrorHandler(app, { onNoSpace: (error) => storage.noteNoSpace(error) });
  sendRequestId(app);
  registerSecurityHeaders(app);

  const tokens = createTokenService(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS);
  const sessions = createSessionCache();
  const authenticate = createAuthenticate(database.db, tokens, sessions);
  const events = createDomainEvents((error, name) => app.log.error({ err: error, event: name }, 'event subscriber failed'));
  let socketServer: SocketServer | null = null;
  const publisher = createPublisher(() => socketServer?.transport ?? null);
  const access = await createAccessChanges({
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    onError: (error, what) => app.log.error({ err: error }, what),
  });
  app.addHook('onClose', () => access.close());
  // Every node forgets the cached sessions first, so the sockets' reload and the next request see the change.
  access.onChange(({ userIds, endedFamilies }) => {
    if (userIds) for (const userId of userIds) sessions.forget(userId);
    else sessions.forget();
    for (const familyId of endedFamilies ?? []) sessions.rememberFamily(familyId, false);
  });

  const authenticateApiKey = createApiKeyAuth({
    db: database.db,
    access,
    limiter: createRateLimiter(database.db, 'api-key', 60_000),
    limitPerMinute: config.API_KEY_RATE_LIMIT_PER_MINUTE,
    onError: (error, what) => app.log.error({ err: error }, what),
  });

  // `ingest`, `outboundReports` and `contactListChecks` are set right below: they need the finished services.
  const services = {
    config,
    database,
    db: database.db,
    tokens,
    authenticate,
    sessions,
    events,
    access,
    publisher,
    loginLimiter: createLoginLimiter(database.db, {
      perIp: config.LOGIN_LIMIT_PER_IP,
      perEmailIp: config.LOGIN_LIMIT_PER_EMAIL,
      windowMs: config.LOGIN_LIMIT_WINDOW_SECONDS * 1000,
      lockoutAfter: config.LOGIN_LOCKOUT_AFTER,
      lockoutMaxMs: config.LOGIN_LOCKOUT_MAX_SECONDS * 1000,
      secret: config.JWT_SECRET,
    }),
    signupLimiter: createRateLimiter(database.db, 'signup', 3_600_000),
    resetLimiter: createRateLimiter(database.db, 'password-reset', 3_600_000),
    mailer: createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      folder: config.NODE_ENV === 'production' ? null : path.join(config.DATA_DIR, 'mail'),
      logger,
    }),
    media: createMediaStorage({ store: mediaStore, secret: config.JWT_SECRET, disk: mediaStore.kind === 'local' ? storage : undefined, logger }),
    storage,
    secrets: createSecretBox(config.ENCRYPTION_KEY),
    channels: createChannelRegistry(database.db),
    socketServer: null,
    jobs: options.jobs,
    logger,
    metrics,
    clock: options.clock ?? systemClock,
    payments: createPayments(config, { db: database.db, secrets: createSecretBox(config.ENCRYPTION_KEY), mainCompanyId: MAIN_COMPANY_ID }),
    automation: createAutomationRuntime(logger),
    outbound: createOutboundEngine({ config, logger, clock: options.clock ?? systemClock }),
  } as AppServices;
  services.outboundReports = {
    applyAck: (ref, ack) => applyOutboundAck(services, ref, ack),
    applyFailure: (ref, reason) => applyOutboundFailure(services, ref, reason),
    confirmByKey: (ref, key) => confirmOutboundByKey(services, ref, key),
  };
  services.ingest = new IngestQueue({ db: services.db, database, events, publisher, logger, reactions: createInboundReactions(services) });
  services.contactListChecks = createContactListChecks(services);
  services.presence = createPresence(services);
  services.autoAssign = createAutoAssigner(services);
  services.autoAssign.start();
  app.addHook('onClose', () => services.autoAssign.stop());
  app.decorate('services', services);
  app.addHook('onClose', () => services.mailer.close());
  if (config.REDIS_URL) {
    const { connectBaileysRelay } = await import('./channels/baileys/baileys-relay.js');
    const relay = await connectBaileysRelay(config.REDIS_URL, (error) => app.log.error({ err: error }, 'redis (channel relay) error'));
    services.channels.setRelay(relay);
    app.addHook('onClose', () => relay.close());
  }

  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_MEDIA_BYTES, files: 10, fields: 20, fieldSize: 64 * 1024 } });
  if (config.webOrigins.length > 0) {
    await app.register(fastifyCors, corsOptions(config.webOrigins));
  }
  if (options.serveWeb !== false) {
    await registerWebApp(app, config.WEB_DIST_DIR ? path.resolve(config.WEB_DIST_DIR) : defaultWebDist());
  }

  // The OpenAPI document sees every route registered from here on (the web app's files are not API).
  const openApi = createOpenApi({ version: APP_VERSION });
  app.addHook('onRoute', openApi.onRoute);
  registerOpenApiRoutes(app, openApi);
  registerHealthRoutes(app, services);
  registerMetricsRoutes(app, { metrics, token: config.METRICS_TOKEN });
  registerMediaRoutes(app, services);
  for (const register of publicModules) await register(app, services);
  await app.register(async (scope) => {
    requireSession(scope, authenticate, authenticateApiKey);
    guardRoutesByRole(scope);
    for (const register of privateModules) await register(scope, services);
  });
  // The providers and session control need the finished services (media, secrets, jobs).
  services.channels.attach(services);
  subscribeModuleEvents(services);

  if (options.realtime !== false) {
    const { createSocketServer } = await import('./platform/realtime/socket-server.js');
    socketServer = await createSocketServer(app.server, {
      authenticate,
      redisUrl: config.REDIS_URL,
      redisPrefix: config.REDIS_PREFIX,
      logger: app.log,
      inspectToken: async (token) => {
        const { expiresAt, familyId } = await tokens.verifyAccess(token);
        return { expiresAt, familyId };
      },
      // Presence across nodes (modules/auto-assign/presence.service.ts); a user coming online may be given waiting tickets.
      onUserStatus: async (ctx: RequestContext) => {
        if (await services.presence.connected(ctx)) services.autoAssign.request(ctx.companyId);
      },
      onUserOffline: (ctx: RequestContext) => services.presence.disconnected(ctx),
    });
    // A user joins a ticket's room only if it may open that ticket.
    socketServer.setChatBoxAuthorizer(async (ctx, ticketId) => {
      const ticket = await findTicketDetail(database.db, ctx, ticketId);
      return ticket !== null && canSeeTicket(ctx, ticket);
    });
    services.socketServer = socketServer;
    const sockets = socketServer;
    access.onChange((change) => sockets.applyAccessChange(change, (userId) => loadSession(database.db, userId)));
    // Sockets close before Fastify waits for HTTP to drain: an open websocket would hold the server open.
    services.presence.start(() => sockets.connectedUsers());
    app.addHook('preClose', async () => {
      await sockets.close();
      await services.presence.stop().catch((error: unknown) => app.log.error({ err: error }, 'presence not cleared'));
    });
  }

  // What the scrape reads now rather than counts: the queues and connections are the whole
  // install's (the same on every node), the sockets and the pool this node's.
  const { pool } = database;
  metrics.readFrom({
    jobQueues: () => options.jobs.queueStats(),
    connections: () => countConnectionsByState(database.db),
    openSockets: () => socketServer?.openSockets() ?? 0,
    ...(pool ? { databasePool: pool } : {}),
  });

  return app as unknown as App;
}
