import type { Server as HttpServer } from 'node:http';
import type { Socket as NetSocket } from 'node:net';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { CLIENT_EVENTS, companyEvent, SERVER_EVENTS, TICKET_STATUSES, type AuthEventPayload, type SessionEndReason, type TicketStatus } from '@atende/shared';
import { Server, type Socket } from 'socket.io';
import type { Authenticate } from '../http/context.js';
import type { AccessChange } from '../events/access-changes.js';
import { AppError } from '../http/app-error.js';
import { companyExpiresAt, isCompanyExpired, type RequestContext } from '../http/context.js';
import type { RealtimeTransport } from './publisher.js';
import { connectRedisStreams, type RedisStreamsConnection } from './redis-streams-client.js';
import { rooms } from './rooms.js';
import { createWritePacer, type PacedConnection, type WritePacer } from './write-pacer.js';

interface JoinAuthorizer {
  (ctx: RequestContext, id: number): Promise<boolean>;
}

interface SocketServerLogger {
  info(o: object | string, m?: string): void;
  warn(o: object | string, m?: string): void;
  error(o: object | string, m?: string): void;
}

export interface SocketServerOptions {
  authenticate: Authenticate;
  /** Set: fan out through the Redis streams adapter (several nodes, cross-node recovery). */
  redisUrl?: string;
  /** Redis stream key; tests give each run its own. */
  streamName?: string;
  logger: SocketServerLogger;
  /** Called on connect and on each `userStatus` emit: mark the user online + lastSeenAt. */
  onUserStatus(ctx: RequestContext): Promise<void>;
  /** Called when the user's last socket on this node disconnects. */
  onUserOffline?(ctx: RequestContext): Promise<void>;
  /** At most one write round per this many ms while busy (`write-pacer.ts`). */
  flushIntervalMs?: number;
  /**
   * When the access token stops being valid (ms since epoch) and its sign-in
   * (refresh family). Given: the socket ends at expiry unless the client sent a
   * fresh token (`updateToken`), and when its sign-in is logged out.
   */
  inspectToken?(token: string): Promise<{ expiresAt: number; familyId?: string }>;
  /** Redis stream key prefix owner; the stream is `${redisPrefix}:socket.io` unless streamName is set. */
  redisPrefix?: string;
}

/** Reads a user's current rights from the database (null: the user is gone). */
type ReloadSession = (userId: number) => Promise<RequestContext | null>;

export interface SocketServer {
  transport: RealtimeTransport;
  /** Features register who may join a ticket room, e.g. tickets.registerChatBoxAuthorizer. */
  setChatBoxAuthorizer(authorizer: JoinAuthorizer): void;
  /**
   * Applies a change of rights to this node's sockets of those users: each is
   * re-synced to the rooms its new rights allow, or ended (`company-{id}-auth`
   * sessionEnded, then disconnected) when it may no longer be connected.
   */
  applyAccessChange(change: AccessChange, reload: ReloadSession): Promise<void>;
  /** Socket.IO connections open on this node (metrics). */
  openSockets(): number;
  /** The users with at least one socket on this node (presence's heartbeat). */
  connectedUsers(): { companyId: number; userId: number }[];
  close(): Promise<void>;
}

interface SocketData {
  ctx: RequestContext;
  /** Expiry of the token the socket last presented (ms since epoch), null: unknown. */
  expiresAt: number | null;
  /** The sign-in (refresh family) of that token: a logout of it ends the socket. */
  familyId?: string;
  ended?: boolean;
}
// Connection-state recovery stores `socket.data` (through the Redis adapter, as
// msgpack): it holds plain values only. A timer or a promise there (circular) made
// the adapter throw and the process crash when a socket dropped.

/** `ready` to one socket; the company events (`company-{id}-ticket`, ...) to rooms. */
type ServerToClient = Record<string, (payload?: unknown) => void>;

type AtendeSocket = Socket<Record<string, never>, ServerToClient, Record<string, never>, SocketData>;

/** What a client gets back when it passes an acknowledgement callback. */
type JoinAck = { ok: true } | { ok: false; error: 'ERR_NO_PERMISSION' | 'ERR_VALIDATION' };

const DEFAULT_PREFIX = 'atende';
// setTimeout's limit; a token living longer is checked again when this fires.
const MAX_TIMER_MS = 2 ** 31 - 1;
// Spec part 1 §9: ping interval and timeout 18 s.
const PING_MS = 18_000;

/** Every room we emit to is one of ours: company-prefixed, or the platform-wide one. */
function isKnownRoom(room: string): boolean {
  return room === rooms.everyone() || /^company:\d+(:|$)/.test(room);
}

/**
 * Routes a socket's packets through the server's write rounds (`write-pacer.ts`).
 * Reaches into Engine.IO's socket (its `flush` and `writeBuffer`) and the websocket
 * transport's connection (`ws` keeps it as `_socket`); where these are not found,
 * packets go out one by one.
 */
function paceWrites(socket: AtendeSocket, pacer: WritePacer): void {
  const connection = socket.conn as unknown as Partial<PacedConnection> & { transport?: { socket?: { _socket?: NetSocket } } };
  const tcp = connection.transport?.socket?._socket;
  if (!tcp || typeof tcp.cork !== 'function') return;
  if (typeof connection.flush !== 'function' || !Array.isArray(connection.writeBuffer)) return;
  pacer.pace(connection as PacedConnection, tcp);
}

function handshakeToken(socket: AtendeSocket): string | null {
  // The spec puts the token in the query; socket.io-client's `auth` is accepted too.
  const fromQuery = socket.handshake.query.token;
  const fromAuth: unknown = socket.handshake.auth?.token;
  const token = typeof fromQuery === 'string' ? fromQuery : Array.isArray(fromQuery) ? fromQuery[0] : fromAuth;
  return typeof token === 'string' && token.length > 0 ? token : null;
}

function positiveInt(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function ticketStatus(value: unknown): TicketStatus | null {
  return TICKET_STATUSES.find((status) => status === value) ?? null;
}

/** The client may pass an acknowledgement callback as the last argument. */
function ackOf(args: unknown[]): (answer: JoinAck) => void {
  const last = args.at(-1);
  return typeof last === 'function' ? (answer) => (last as (answer: JoinAck) => void)(answer) : () => undefined;
}

function authError(error: unknown, logger: SocketServerLogger): Error {
  const failure = new Error('ERR_SESSION_EXPIRED') as Error & { data?: { status: number } };
  if (error instanceof AppError) {
    // 403 = expired access token (the client refreshes and reconnects); 401 = invalid.
    failure.message = error.code;
    failure.data = { status: error.statusCode };
    return failure;
  }
  // Not the token's fault (e.g. the database is down): do not log the user out.
  logger.error({ err: error }, 'socket authentication failed');
  failure.message = 'ERR_INTERNAL_SERVER_ERROR';
  failure.data = { status: 500 };
  return failure;
}

/**
 * Sends an event to this one socket, at once. `socket.emit` would go through the
 * adapter when connection-state recovery is on, which with Redis publishes first
 * and delivers later: after a disconnect that follows. These events concern this
 * connection only, so they are neither stored for recovery nor sent to other nodes.
 */
function emitToSocket(socket: AtendeSocket, event: string, ...args: unknown[]): void {
  (socket.nsp.local.to(socket.id) as unknown as { emit(name: string, ...rest: unknown[]): boolean }).emit(event, ...args);
}

/** Why this user may not hold a socket any more, or null while it may. */
function endReason(current: RequestContext, fresh: RequestContext | null): SessionEndReason | null {
  if (!fresh || fresh.companyId !== current.companyId) return 'userDeleted';
  if (fresh.user.tokenVersion !== current.user.tokenVersion) return 'tokenRevoked';
  if (!fresh.company.status && !fresh.user.super) return 'companyInactive';
  return null;
}

/** A company past its due date, for anyone but super users: only its admins connect, and only to pay. */
function isOverdue(ctx: RequestContext): boolean {
  return !ctx.user.super && isCompanyExpired(ctx.company);
}

function chatBoxTicketId(room: string, companyId: number): number | null {
  const prefix = rooms.chatBox(companyId, 0).replace(/0$/, '');
  return room.startsWith(prefix) ? positiveInt(room.slice(prefix.length)) : null;
}

/**
 * The rooms that follow from who the user is (not from what it asked to join).
 * Runs on every connect, recovery included (a recovered socket gets its old
 * rooms back, while the freshly loaded ctx may have lost a queue or the admin
 * profile), and on every change of the user's rights. Chat boxes the socket
 * joined are asked again. Says `ready` on a connect
 * and whenever the rooms changed, so the client knows what it hears from now on
 * (and may reload what it shows).
 */
async function syncMembership(
  socket: AtendeSocket,
  ctx: RequestContext,
  authorizer: JoinAuthorizer | null,
  alwaysReady: boolean,
): Promise<void> {
  const { companyId, user } = ctx;
  if (isOverdue(ctx)) {
    // An admin of an overdue company is signed in to pay: it hears its payment and nothing else.
    let left = false;
    for (const room of socket.rooms) {
      if (room === socket.id || room === rooms.billing(companyId)) continue;
      await socket.leave(room);
      left = true;
    }
    const joined = !socket.rooms.has(rooms.billing(companyId));
    if (joined) await socket.join(rooms.billing(companyId));
    if (socket.connected && (left || joined || alwaysReady)) emitToSocket(socket, SERVER_EVENTS.ready);
    return;
  }
  const wanted = new Set([rooms.company(companyId), rooms.user(companyId, user.id), rooms.everyone()]);
  if (user.profile === 'admin') {
    wanted.add(rooms.admins(companyId));
    wanted.add(rooms.billing(companyId));
  }
  if (user.allTicket === 'enabled') wanted.add(rooms.allTicket(companyId));
  for (const queueId of user.queueIds) wanted.add(rooms.queue(companyId, queueId));

  const derived = [rooms.admins(companyId), rooms.billing(companyId), rooms.allTicket(companyId)];
  const queuePrefix = rooms.queue(companyId, 0).replace(/0$/, '');
  const chatBoxes: { room: string; ticketId: number }[] = [];
  let changed = false;
  for (const room of socket.rooms) {
    const isDerived = derived.includes(room) || room.startsWith(queuePrefix);
    if (isDerived && !wanted.has(room)) {
      await socket.leave(room);
      changed = true;
    }
    const ticketId = chatBoxTicketId(room, companyId);
    if (ticketId !== null) chatBoxes.push({ room, ticketId });
  }
  for (const { room, ticketId } of chatBoxes) {
    // No authorizer, or one that fails: the safe answer is "no longer allowed".
    const allowed = authorizer ? await authorizer(ctx, ticketId).catch(() => false) : false;
    if (!allowed) {
      await socket.leave(room);
      changed = true;
    }
  }
  const joining = [...wanted].filter((room) => !socket.rooms.has(room));
  if (joining.length > 0) {
    await socket.join(joining);
    changed = true;
  }
  if (socket.connected && (changed || alwaysReady)) emitToSocket(socket, SERVER_EVENTS.ready);
}

export async function createSocketServer(httpServer: HttpServer, options: SocketServerOptions): Promise<SocketServer> {
  const { logger } = options;
  const pacer = createWritePacer(options.flushIntervalMs);
  /** The timer that ends a socket when its token expires. */
  const expiryTimers = new WeakMap<AtendeSocket, NodeJS.Timeout>();
  /** Re-syncs of one socket run one after another: the last one queued. */
  const syncs = new WeakMap<AtendeSocket, Promise<void>>();
  let chatBoxAuthorizer: JoinAuthorizer | null = null;
  let redis: RedisStreamsConnection | null = null;

  if (options.redisUrl) {
    redis = await connectRedisStreams(options.redisUrl, (error) => logger.error({ err: error }, 'redis (socket.io adapter) error'));
  }

  const io = new Server<Record<string, never>, ServerToClient, Record<string, never>, SocketData>(httpServer, {
    path: '/socket.io',
    serveClient: false,
    transports: ['websocket'],
    pingInterval: PING_MS,
    pingTimeout: PING_MS,
    maxHttpBufferSize: 1_000_000,
    // Same origin by default; the web app is served by this process.
    cors: undefined,
    connectionStateRecovery: {
      maxDisconnectionDuration: 2 * 60 * 1000,
      // A recovered socket is re-authenticated: its token may have been revoked meanwhile.
      skipMiddlewares: false,
    },
    ...(redis ? { adapter: createAdapter(redis.client, { streamName: options.streamName ?? `${options.redisPrefix ?? DEFAULT_PREFIX}:socket.io` }) } : {}),
  });

  // Sockets per user on this node, so "offline" fires only when the last tab closes.
  const socketsPerUser = new Map<string, number>();
  const pending = new Set<Promise<void>>();

  /** Runs a callback without letting its failure reach Socket.IO; close() waits for it. */
  function track(what: string, ctx: RequestContext, run: () => Promise<void>): void {
    const promise = run()
      .catch((error: unknown) => logger.error({ err: error, companyId: ctx.companyId, userId: ctx.user.id }, what))
      .finally(() => pending.delete(promise));
    pending.add(promise);
  }

  /** Authenticates a presented token: the same checks as HTTP, plus an active company. */
  async function authenticateSocket(token: string): Promise<{ ctx: RequestContext; expiresAt: number | null; familyId?: string }> {
    const ctx = await options.authenticate(token);
    if (!ctx.company.status && !ctx.user.super) throw new AppError('ERR_SESSION_EXPIRED', 401);
    if (isOverdue(ctx) && ctx.user.profile !== 'admin') throw new AppError('ERR_SUBSCRIPTION_EXPIRED');
    // A session limited to setting up its second factor hears nothing of the company.
    if (ctx.user.twoFactorSetupRequired) throw new AppError('ERR_TWO_FACTOR_SETUP_REQUIRED');
    const inspected = options.inspectToken ? await options.inspectToken(token) : null;
    let expiresAt = inspected?.expiresAt ?? null;
    // The due date passing ends the socket like a token expiry: the client refreshes and comes back with what is left.
    const due = companyExpiresAt(ctx.company)?.getTime();
    if (!ctx.user.super && !isOverdue(ctx) && due !== undefined) expiresAt = expiresAt === null ? due : Math.min(expiresAt, due);
    return { ctx, expiresAt, familyId: inspected?.familyId };
  }

  /** Tells the client why (it must not reconnect with this token), then closes the socket. */
  function endSocket(socket: AtendeSocket, reason: SessionEndReason): void {
    if (socket.data.ended) return;
    socket.data.ended = true;
    clearTimeout(expiryTimers.get(socket));
    const { ctx } = socket.data;
    const payload: AuthEventPayload = { action: 'sessionEnded', reason };
    logger.info({ companyId: ctx.companyId, userId: ctx.user.id, reason }, 'socket session ended');
    emitToSocket(socket, companyEvent(ctx.companyId, 'auth'), payload);
    // Engine.IO sends what is buffered before closing the transport.
    socket.disconnect(true);
  }

  function scheduleExpiry(socket: AtendeSocket): void {
    clearTimeout(expiryTimers.get(socket));
    const { expiresAt } = socket.data;
    if (expiresAt === null) return;
    const wait = expiresAt - Date.now();
    if (wait <= 0) {
      endSocket(socket, 'tokenExpired');
      return;
    }
    const timer = setTimeout(() => {
      if (socket.data.expiresAt !== null && socket.data.expiresAt <= Date.now()) endSocket(socket, 'tokenExpired');
      else scheduleExpiry(socket);
    }, Math.min(wait, MAX_TIMER_MS));
    timer.unref();
    expiryTimers.set(socket, timer);
  }

  /** Re-syncs one socket to its (new) rights; one at a time per socket. */
  function resync(socket: AtendeSocket, reason: 'connect' | 'change'): Promise<void> {
    const previous = syncs.get(socket) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (socket.data.ended || !socket.connected) return;
      // Chat boxes are asked again too: a recovered socket gets back the ones it had joined.
      await syncMembership(socket, socket.data.ctx, chatBoxAuthorizer, reason === 'connect');
    });
    const settled = next.catch((error: unknown) => {
      logger.error({ err: error, companyId: socket.data.ctx.companyId, userId: socket.data.ctx.user.id }, 'socket re-sync failed');
    });
    syncs.set(socket, settled);
    return settled;
  }

  let closed = false;

  io.use((socket, next) => {
    // Shutting down: a client that reconnects at once must not hold the server open again.
    if (closed) {
      next(Object.assign(new Error('ERR_SERVER_SHUTTING_DOWN'), { data: { status: 503 } }));
      return;
    }
    const token = handshakeToken(socket);
    if (!token) {
      next(authError(new AppError('ERR_SESSION_EXPIRED', 401), logger));
      return;
    }
    authenticateSocket(token).then(
      ({ ctx, expiresAt, familyId }) => {
        socket.data.ctx = ctx;
        socket.data.expiresAt = expiresAt;
        socket.data.familyId = familyId;
        socket.data.ended = false;
        next();
      },
      (error: unknown) => next(authError(error, logger)),
    );
  });

  io.on('connection', (socket) => {
    paceWrites(socket, pacer);
    const { ctx } = socket.data;
    const { companyId } = ctx;
    const userKey = `${companyId}:${ctx.user.id}`;

    scheduleExpiry(socket);
    void resync(socket, 'connect');

    socketsPerUser.set(userKey, (socketsPerUser.get(userKey) ?? 0) + 1);
    track('userStatus failed', ctx, () => options.onUserStatus(ctx));

    socket.on('disconnect', () => {
      clearTimeout(expiryTimers.get(socket));
      const left = (socketsPerUser.get(userKey) ?? 1) - 1;
      if (left > 0) {
        socketsPerUser.set(userKey, left);
        return;
      }
      socketsPerUser.delete(userKey);
      const onUserOffline = options.onUserOffline;
      if (onUserOffline) track('userOffline failed', ctx, () => onUserOffline(ctx));
    });

    socket.on(CLIENT_EVENTS.userStatus, () => {
      track('userStatus failed', ctx, () => options.onUserStatus(ctx));
    });

    // A refreshed access token keeps the socket beyond the old one's expiry.
    socket.on(CLIENT_EVENTS.updateToken, (token: unknown, ...rest: unknown[]) => {
      const ack = ackOf([token, ...rest]) as (answer: { ok: true } | { ok: false; error: 'ERR_SESSION_EXPIRED' | 'ERR_VALIDATION' }) => void;
      if (typeof token !== 'string' || token.length === 0) return ack({ ok: false, error: 'ERR_VALIDATION' });
      authenticateSocket(token).then(
        ({ ctx: fresh, expiresAt, familyId }) => {
          // Another user's token does not turn this socket into theirs.
          if (fresh.companyId !== companyId || fresh.user.id !== ctx.user.id) return ack({ ok: false, error: 'ERR_SESSION_EXPIRED' });
          if (socket.data.ended) return ack({ ok: false, error: 'ERR_SESSION_EXPIRED' });
          socket.data.ctx = fresh;
          socket.data.expiresAt = expiresAt;
          socket.data.familyId = familyId;
          scheduleExpiry(socket);
          ack({ ok: true });
          void resync(socket, 'change');
        },
        () => ack({ ok: false, error: 'ERR_SESSION_EXPIRED' }),
      );
    });

    // Any user of the company hears its notifications.
    socket.on(CLIENT_EVENTS.joinNotification, (...args: unknown[]) => {
      if (isOverdue(socket.data.ctx)) return ackOf(args)({ ok: false, error: 'ERR_NO_PERMISSION' });
      void socket.join(rooms.notification(companyId));
      ackOf(args)({ ok: true });
    });
    socket.on(CLIENT_EVENTS.leaveNotification, (...args: unknown[]) => {
      void socket.leave(rooms.notification(companyId));
      ackOf(args)({ ok: true });
    });

    socket.on(CLIENT_EVENTS.joinTickets, (status: unknown, ...rest: unknown[]) => {
      const ack = ackOf([status, ...rest]);
      const valid = ticketStatus(status);
      if (!valid) return ack({ ok: false, error: 'ERR_VALIDATION' });
      if (isOverdue(socket.data.ctx)) return ack({ ok: false, error: 'ERR_NO_PERMISSION' });
      void socket.join(rooms.tickets(companyId, valid));
      ack({ ok: true });
    });
    socket.on(CLIENT_EVENTS.leaveTickets, (status: unknown, ...rest: unknown[]) => {
      const ack = ackOf([status, ...rest]);
      const valid = ticketStatus(status);
      if (!valid) return ack({ ok: false, error: 'ERR_VALIDATION' });
      void socket.leave(rooms.tickets(companyId, valid));
      ack({ ok: true });
    });

    socket.on(CLIENT_EVENTS.joinChatBox, (ticketId: unknown, ...rest: unknown[]) => {
      const ack = ackOf([ticketId, ...rest]);
      const id = positiveInt(ticketId);
      if (id === null) return ack({ ok: false, error: 'ERR_VALIDATION' });
      if (isOverdue(socket.data.ctx)) return ack({ ok: false, error: 'ERR_NO_PERMISSION' });
      // Without a registered authorizer nobody may join: refusing is the safe default.
      const authorizer = chatBoxAuthorizer;
      if (!authorizer) return ack({ ok: false, error: 'ERR_NO_PERMISSION' });
      authorizer(socket.data.ctx, id).then(
        (allowed) => {
          if (!allowed) return ack({ ok: false, error: 'ERR_NO_PERMISSION' });
          // The socket may have gone while we asked the database.
          if (socket.connected) void socket.join(rooms.chatBox(companyId, id));
          ack({ ok: true });
        },
        (error: unknown) => {
          logger.error({ err: error, companyId, userId: ctx.user.id, ticketId: id }, 'joinChatBox authorization failed');
          ack({ ok: false, error: 'ERR_NO_PERMISSION' });
        },
      );
    });
    socket.on(CLIENT_EVENTS.leaveChatBox, (ticketId: unknown, ...rest: unknown[]) => {
      const ack = ackOf([ticketId, ...rest]);
      const id = positiveInt(ticketId);
      if (id === null) return ack({ ok: false, error: 'ERR_VALIDATION' });
      void socket.leave(rooms.chatBox(companyId, id));
      ack({ ok: true });
    });

  });

  const transport: RealtimeTransport = {
    emit(roomsToReach, event, payload) {
      // io.to([]) would broadcast to every socket: an empty target must reach nobody.
      if (roomsToReach.length === 0) return;
      const unknown = roomsToReach.filter((room) => !isKnownRoom(room));
      if (unknown.length > 0) {
        logger.error({ event, rooms: unknown }, 'refused to emit to rooms outside the company naming');
        return;
      }
      io.to(roomsToReach).emit(event, payload);
    },
    flush: () => redis?.flushed() ?? Promise.resolve(),
    sent: () => pacer.sent(),
  };

  async function applyAccessChange(change: AccessChange, reload: ReloadSession): Promise<void> {
    const affected = new Map<number, AtendeSocket[]>();
    for (const socket of io.of('/').sockets.values()) {
      const { ctx } = socket.data;
      if (!ctx || ctx.companyId !== change.companyId || socket.data.ended) continue;
      if (change.userIds && !change.userIds.includes(ctx.user.id)) continue;
      affected.set(ctx.user.id, [...(affected.get(ctx.user.id) ?? []), socket]);
    }
    await Promise.all(
      [...affected].map(async ([userId, sockets]) => {
        const fresh = await reload(userId);
        await Promise.all(
          sockets.map((socket) => {
            const loggedOut = socket.data.familyId !== undefined && change.endedFamilies?.includes(socket.data.familyId);
            const reason = endReason(socket.data.ctx, fresh) ?? (loggedOut ? 'loggedOut' : null);
            if (reason || !fresh) {
              endSocket(socket, reason ?? 'userDeleted');
              return Promise.resolve();
            }
            socket.data.ctx = fresh;
            return resync(socket, 'change');
          }),
        );
      }),
    );
  }

  return {
    transport,
    setChatBoxAuthorizer(authorizer) {
      chatBoxAuthorizer = authorizer;
    },
    applyAccessChange,
    openSockets: () => io.engine.clientsCount,
    connectedUsers: () =>
      [...socketsPerUser.keys()].map((key) => {
        const [companyId, userId] = key.split(':').map(Number);
        return { companyId: companyId ?? 0, userId: userId ?? 0 };
      }),
    async close() {
      if (closed) return;
      closed = true;
      // Not io.close(): it would also close the HTTP server, which Fastify owns and closes itself.
      io.local.disconnectSockets(true);
      await io.of('/').adapter.close();
      io.engine.close();
      await Promise.allSettled([...pending]);
      await redis?.close();
    },
  };
}
