import pino from 'pino';
import type { AppServices } from '../app.js';
import type { Db } from '../platform/db/client.js';
import { AppError } from '../platform/http/app-error.js';
import { createBaileysProvider, type BaileysLocalProvider } from './baileys/baileys.provider.js';
import type { BaileysRelay } from './baileys/baileys-relay.js';
import type { BaileysSessionHub } from './baileys/baileys-session.js';
import { providerKindOf, type ChannelGateway, type ProviderKind } from '../modules/connections/channel-provider.js';
import { createCloudApiJobs, type CloudApiJobs } from './cloud-api/cloud-api.jobs.js';
import { createCloudApiProvider, type CloudApiProvider } from './cloud-api/cloud-api.provider.js';
import { createSandboxProvider } from './sandbox/sandbox.provider.js';
import { applySessionAction, startSession } from './session-control.js';
import { checkCloudApiConnection } from './cloud-api/cloud-api.session.js';

export interface CloudApiChannel {
  provider: CloudApiProvider;
  jobs: CloudApiJobs;
}

export interface ChannelRegistry extends ChannelGateway {
  /**
   * Wires the providers and session control to the app's services (media, secrets,
   * config, jobs). Called once while the app is built (app.ts).
   */
  attach(services: AppServices): void;
  cloudApi(): CloudApiChannel;
  /** Baileys sessions running in this process (the session supervisor fills it). */
  readonly baileysSessions: BaileysSessionHub;
  /** Cross-node calls to Baileys sessions (set when REDIS_URL is: more than one node is possible). */
  setRelay(relay: BaileysRelay): void;
  /** Answers relayed calls for the sessions this node's supervisor (`nodeId`) holds. */
  serveRelay(nodeId: string): Promise<void>;
  onWake(listener: () => void): void;
  readonly logger: pino.Logger;
}

function assertNever(kind: never): never {
  throw new Error(`unhandled provider kind ${String(kind)}`);
}

export function createChannelRegistry(db: Db): ChannelRegistry {
  const sandbox = createSandboxProvider(db);
  const baileysSessions: BaileysSessionHub = new Map();
  const wakeListeners: (() => void)[] = [];
  let baileys: BaileysLocalProvider | null = null;
  let relay: BaileysRelay | null = null;
  let cloud: CloudApiChannel | null = null;
  let services: AppServices | null = null;
  let logger = pino({ level: 'silent' });

  function attached<T>(value: T | null): T {
    // Only reachable if a provider is used before the app finished building.
    if (!value) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return value;
  }

  return {
    providerFor(connection) {
      const kind: ProviderKind = providerKindOf(connection.provider);
      switch (kind) {
        case 'sandbox':
          return sandbox;
        case 'baileys':
          return attached(baileys);
        case 'cloud-api':
          return attached(cloud).provider;
        default:
          return assertNever(kind);
      }
    },
    attach(app) {
      if (baileys) return;
      services = app;
      logger = pino({ level: app.config.LOG_LEVEL }).child({ module: 'channels' });
      baileys = createBaileysProvider(app, baileysSessions, () => relay);
      const provider = createCloudApiProvider(app);
      const jobs = createCloudApiJobs(app, provider, logger);
      cloud = { provider, jobs };
      app.jobs.register(jobs.webhook);
      app.jobs.register(jobs.media);
    },
    cloudApi: () => attached(cloud),
    startSession: (connection) => startSession(attached(services), connection),
    sessionAction: (connection, action) => applySessionAction(attached(services), connection, action),
    async checkConnection(connection) {
      if (providerKindOf(connection.provider) === 'cloud-api') await checkCloudApiConnection(attached(services), connection);
    },
    async stopLocalSession(whatsappId) {
      await baileysSessions
        .get(whatsappId)
        ?.stop('logout')
        .catch(() => undefined);
    },
    setRelay(value) {
      relay = value;
    },
    async serveRelay(nodeId) {
      await relay?.serve(nodeId, (call) => attached(baileys).serveRelayCall(call));
    },
    baileysSessions,
    wake() {
      for (const listener of wakeListeners) listener();
    },
    onWake(listener) {
      wakeListeners.push(listener);
    },
    get logger() {
      return logger;
    },
  };
}
