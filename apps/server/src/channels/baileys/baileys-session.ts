import makeWASocket, {
  DEFAULT_CONNECTION_CONFIG,
  DisconnectReason,
  downloadMediaMessage,
  isJidBroadcast,
  isJidNewsletter,
  jidDecode,
  makeCacheableSignalKeyStore,
  type BaileysEventMap,
  type WAMessage,
  type WASocket,
} from 'baileys';
import type { Logger } from '../../platform/logger.js';
import type { Platform } from '../../platform/platform.js';
import { writeSessionState, type SessionPatch, type SessionRef } from '../../modules/connections/connection-state.js';
import type { StopMode, SupervisedSession } from '../session-supervisor.js';
import { clearAuthState, useDatabaseAuthState } from './baileys-auth-state.js';
import { handleCalls, handleUpdates, handleUpsert, type BaileysInboundContext, type BaileysInboundDeps } from './baileys-inbound.js';
import { findStoredMessage } from './baileys.repo.js';

export interface BaileysSessionOptions {
  /** QR codes shown without a scan before the session gives up (DISCONNECTED). */
  maxQrCodes: number;
  /** Reconnect backoff: base delay doubled per failed attempt, capped. */
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  /** A paired session that failed this many reconnects in a row shows TIMEOUT (and keeps retrying). */
  attemptsBeforeTimeout: number;
  /** An unpaired session that never got a QR code gives up after this many attempts. */
  unpairedAttempts: number;
  connectTimeoutMs: number;
  /** Group subject lookups that take longer fall back to the group's id. */
  queryTimeoutMs: number;
  waWebSocketUrl?: string;
  /** Replaced in tests: there is no WhatsApp media server here. */
  downloadMedia?: (message: WAMessage) => Promise<Buffer>;
}

const DEFAULT_SESSION_OPTIONS: BaileysSessionOptions = {
  maxQrCodes: 5,
  reconnectBaseMs: 2_000,
  reconnectMaxMs: 60_000,
  attemptsBeforeTimeout: 5,
  unpairedAttempts: 5,
  connectTimeoutMs: 20_000,
  queryTimeoutMs: 5_000,
};

export interface BaileysSession extends SupervisedSession {
  readonly ref: SessionRef;
  /** The open socket, or null while connecting or stopped. */
  openSocket(): WASocket | null;
  /** The current socket, open or not (tests feed its event emitter). */
  currentSocket(): WASocket | null;
  /** Resolves once every event received so far has been handled. */
  idle(): Promise<void>;
}

/** Baileys sessions running in this process, by connection id: what the provider sends through. */
export type BaileysSessionHub = Map<number, BaileysSession>;

/** What a session writes (its state, its auth keys), what it hands to the ingest pipeline, and where it logs. */
export type BaileysSessionDeps = BaileysInboundDeps & Pick<Platform, 'db' | 'events' | 'config' | 'logger'>;

/** Which session to run, and where this process keeps it. */
export interface BaileysSessionRequest {
  ref: SessionRef;
  hub: BaileysSessionHub;
  /** Status writes apply only while this node holds the lease (null: unsupervised, tests). */
  leaseNodeId: string | null;
  options?: Partial<BaileysSessionOptions>;
}

/** Baileys logs a lot below `warn`: a session logs its warnings and errors only (nothing while the app is silent). */
function sessionLogger(logger: Logger, whatsappId: number): Logger {
  const level = logger.levelVal > (logger.levels.values.warn ?? 40) ? logger.level : 'warn';
  return logger.child({ module: 'channels', whatsappId }, { level });
}

function statusCodeOf(error: unknown): number | undefined {
  return (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
}

const PAIRING_LOST = new Set<number>([DisconnectReason.loggedOut, DisconnectReason.forbidden, DisconnectReason.badSession, DisconnectReason.multideviceMismatch]);

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * One connection's WhatsApp Web session. Statuses (decision 5): OPENING while
 * connecting; `qrcode` with each QR code (pushed live); PAIRING once scanned;
 * CONNECTED when open. Too many QR codes without a scan, or a logout from the
 * phone, end it as DISCONNECTED (the pairing forgotten on logout); a paired
 * session whose reconnects keep failing shows TIMEOUT and keeps trying with
 * backoff. Events are handled one at a time, in the order they arrive.
 */
export async function startBaileysSession(deps: BaileysSessionDeps, request: BaileysSessionRequest): Promise<BaileysSession> {
  const { ref, hub } = request;
  const options = { ...DEFAULT_SESSION_OPTIONS, ...request.options };
  const logger = sessionLogger(deps.logger, ref.whatsappId);
  const guard = { leaseNodeId: request.leaseNodeId, fromSession: true };

  let socket: WASocket | null = null;
  let open = false;
  let stopped = false;
  let ended = false;
  let qrCount = 0;
  let failedAttempts = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let queue: Promise<void> = Promise.resolve();
  const groupSubjects = new Map<string, string>();
  const handledCalls = new Set<string>();

  const write = (patch: SessionPatch) => writeSessionState(deps, ref, patch, guard);

  function enqueue(task: () => Promise<void>): void {
    queue = queue.then(task).catch((error: unknown) => logger.error({ err: error }, 'session event failed'));
  }

  async function finish(patch: SessionPatch, forget: boolean): Promise<void> {
    ended = true;
    open = false;
    const current = socket;
    socket = null;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    await current?.end(undefined);
    if (forget) await clearAuthState(deps.db, ref);
    await write({ qrcode: '', retries: 0, ...patch });
    if (hub.get(ref.whatsappId) === session) hub.delete(ref.whatsappId);
  }

  async function groupSubject(jid: string): Promise<string> {
    const known = groupSubjects.get(jid);
    if (known) return known;
    const fallback = jidDecode(jid)?.user ?? jid;
    const current = socket;
    if (!current || !open) return fallback;
    try {
      const metadata = await withTimeout(current.groupMetadata(jid), options.queryTimeoutMs);
      groupSubjects.set(jid, metadata.subject || fallback);
      return metadata.subject || fallback;
    } catch {
      return fallback;
    }
  }

  function inboundContext(current: WASocket): BaileysInboundContext {
    return {
      deps,
      ref,
      socket: current,
      logger,
      groupSubject,
      downloadMedia:
        options.downloadMedia ??
        ((message) => downloadMediaMessage(message, 'buffer', {}, { logger, reuploadRequest: current.updateMediaMessage })),
    };
  }

  function scheduleReconnect(delayMs: number): void {
    if (stopped || ended) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void connect().catch((error: unknown) => logger.error({ err: error }, 'reconnect failed'));
    }, delayMs);
    reconnectTimer.unref();
  }

  async function onClose(current: WASocket, error: unknown, registered: boolean): Promise<void> {
    open = false;
    if (socket !== current || stopped || ended) return;
    socket = null;
    const code = statusCodeOf(error);
    if (code !== undefined && PAIRING_LOST.has(code)) return finish({ status: 'DISCONNECTED', number: '' }, true);
    if (code === DisconnectReason.connectionReplaced) return finish({ status: 'DISCONNECTED' }, false);
    if (code === DisconnectReason.restartRequired) {
      // Normal right after a QR code is scanned: the socket restarts with the new credentials.
      failedAttempts = 0;
      return scheduleReconnect(0);
    }
    if (!registered && qrCount > 0 && code === DisconnectReason.timedOut) return finish({ status: 'DISCONNECTED' }, true);
    failedAttempts += 1;
    if (!registered && qrCount === 0 && failedAttempts >= options.unpairedAttempts) return finish({ status: 'DISCONNECTED' }, false);
    await write({ status: registered && failedAttempts >= options.attemptsBeforeTimeout ? 'TIMEOUT' : 'OPENING', qrcode: '' });
    scheduleReconnect(Math.min(options.reconnectBaseMs * 2 ** (failedAttempts - 1), options.reconnectMaxMs));
  }

  async function onConnectionUpdate(current: WASocket, update: BaileysEventMap['connection.update']): Promise<void> {
    if (socket !== current || stopped || ended) return;
    if (update.qr) {
      qrCount += 1;
      if (qrCount > options.maxQrCodes) return finish({ status: 'DISCONNECTED' }, true);
      await write({ status: 'qrcode', qrcode: update.qr, retries: qrCount });
    }
    if (update.isNewLogin) await write({ status: 'PAIRING', qrcode: '' });
    if (update.connection === 'open') {
      open = true;
      failedAttempts = 0;
      qrCount = 0;
      // `socket.user` is a snapshot taken when the socket was built; the credentials are current.
      const number = jidDecode(current.authState.creds.me?.id)?.user ?? '';
      await write({ status: 'CONNECTED', qrcode: '', retries: 0, ...(number ? { number } : {}) });
    }
    if (update.connection === 'close') await onClose(current, update.lastDisconnect?.error, Boolean(current.authState.creds.me?.id));
  }

  async function connect(): Promise<void> {
    if (stopped || ended) return;
    const { state, saveCreds } = await useDatabaseAuthState(deps.db, ref);
    const current = makeWASocket({
      auth: { creds: state.creds, keys: makeCacheableSignalKeyStore(state.keys, logger) },
      logger,
      waWebSocketUrl: options.waWebSocketUrl ?? deps.config.WA_WEBSOCKET_URL ?? DEFAULT_CONNECTION_CONFIG.waWebSocketUrl,
      connectTimeoutMs: options.connectTimeoutMs,
      // Agents' phones keep their notifications; what this socket sends is stored by the send path, not echoed back.
      markOnlineOnConnect: false,
      emitOwnEvents: false,
      syncFullHistory: false,
      generateHighQualityLinkPreview: false,
      shouldIgnoreJid: (jid) => Boolean(isJidBroadcast(jid) || isJidNewsletter(jid)),
      getMessage: async (key) => {
        if (!key.id) return undefined;
        const row = await findStoredMessage(deps.db, ref, key.id);
        return row ? { conversation: row.body } : undefined;
      },
    });
    socket = current;
    const ctx = inboundContext(current);
    current.ev.on('creds.update', () => enqueue(() => (socket === current ? saveCreds() : Promise.resolve())));
    current.ev.on('connection.update', (update) => enqueue(() => onConnectionUpdate(current, update)));
    current.ev.on('messages.upsert', (upsert) => enqueue(() => handleUpsert(ctx, upsert)));
    current.ev.on('messages.update', (updates) => enqueue(() => handleUpdates(ctx, updates)));
    current.ev.on('call', (calls) => {
      if (handledCalls.size > 1000) handledCalls.clear();
      enqueue(() => handleCalls(ctx, calls, handledCalls));
    });
    for (const event of ['groups.upsert', 'groups.update'] as const) {
      current.ev.on(event, (groups) => {
        for (const group of groups) if (group.id && group.subject) groupSubjects.set(group.id, group.subject);
      });
    }
  }

  const session: BaileysSession = {
    ref,
    get ended() {
      return ended;
    },
    openSocket: () => (open ? socket : null),
    currentSocket: () => socket,
    idle: async () => {
      let last: Promise<void> | null = null;
      while (last !== queue) {
        last = queue;
        await last;
      }
    },
    async stop(mode: StopMode) {
      if (stopped) return;
      stopped = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = socket;
      socket = null;
      open = false;
      if (hub.get(ref.whatsappId) === session) hub.delete(ref.whatsappId);
      if (mode === 'logout' && current?.authState.creds.me?.id) {
        await withTimeout(current.logout(), 5_000).catch(() => undefined);
      }
      await current?.end(undefined);
      await queue.catch(() => undefined);
      if (mode === 'logout') await clearAuthState(deps.db, ref);
    },
  };

  hub.set(ref.whatsappId, session);
  await write({ status: 'OPENING', qrcode: '' });
  await connect();
  return session;
}
