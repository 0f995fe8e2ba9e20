import type { Authenticate } from './platform/http/context.js';
import type { AutoAssigner } from './modules/auto-assign/auto-assign.service.js';
import type { Presence } from './modules/auto-assign/presence.service.js';
import type { AutomationRuntime } from './automation/automation-runtime.js';
import type { ChannelRegistry } from './channels/channel-registry.js';
import type { ContactListChecks } from './modules/contact-lists/contact-lists.jobs.js';
import type { IngestQueue } from './inbound/ingest-queue.js';
import type { LoginLimiter } from './modules/auth/login-limiter.js';
import type { OutboundEngine } from './outbound/outbound-engine.js';
import type { OutboundReports } from './inbound/inbound-reactions.js';
import type { Payments } from './modules/invoices/payments.js';
import type { Platform } from './platform/platform.js';
import type { RateLimiter } from './platform/http/rate-limiter.js';
import type { SessionCache } from './modules/auth/authenticate.js';
import type { SocketServer } from './platform/realtime/socket-server.js';
import type { StorageMonitor } from './platform/storage/disk-space.js';
import type { TokenService } from './modules/auth/tokens.js';

/**
 * Everything the composition root builds once per process: the platform's ports and the
 * modules' services. Only the composition root (app.ts, app-routes.ts), main.ts and tests
 * see it whole; every other function declares the few ports it uses (platform/platform.ts).
 */
export interface AppServices extends Platform {
  tokens: TokenService;
  authenticate: Authenticate;
  sessions: SessionCache;
  loginLimiter: LoginLimiter;
  /** Public sign-ups and password-reset requests per IP (fixed windows of an hour). */
  signupLimiter: RateLimiter;
  resetLimiter: RateLimiter;
  /** Free space of DATA_DIR and writes refused for lack of space (/health, media). */
  storage: StorageMonitor;
  channels: ChannelRegistry;
  socketServer: SocketServer | null;
  /** The contact lists' WhatsApp check of numbers (its durable job). */
  contactListChecks: ContactListChecks;
  /** Pix payments: the server the fake PSP and the webhook live on, the provider built on first use. */
  payments: Payments;
  /** The outbound engine's per-app state: knobs, the sources' settle handlers and sweep hooks, its dispatch job. */
  outbound: OutboundEngine;
  /** The automation's knobs (network budget, waits) and logger. */
  automation: AutomationRuntime;
  /** The inbound pipeline's group commit (inbound/ingest-queue.ts), with the automation's reactions. */
  ingest: IngestQueue;
  /** Delivery reports of the outbound engine's sends (inbound/message-updates.ts asks, outbound/ answers). */
  outboundReports: OutboundReports;
  /** Who is online on any node (issue 35), this node's part of it. */
  presence: Presence;
  /** Auto-assignment's rounds on this node (issue 35). */
  autoAssign: AutoAssigner;
}
