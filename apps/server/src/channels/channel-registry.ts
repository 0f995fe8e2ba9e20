import type { Db } from '../platform/db/client.js';
import { AppError } from '../platform/http/app-error.js';
import type { Platform } from '../platform/platform.js';
import { createBaileysProvider, type BaileysLocalProvider, type BaileysProviderDeps } from './baileys/baileys.provider.js';
import type { BaileysRelay } from './baileys/baileys-relay.js';
import type { BaileysSessionHub } from './baileys/baileys-session.js';
import { providerKindOf, type ChannelGateway, type ProviderKind } from '../modules/connections/channel-provider.js';
import type { CloudApiChannel, CloudApiChannels } from './cloud-api/cloud-api.channel.js';
import { createCloudApiJobs, type CloudApiJobsDeps } from './cloud-api/cloud-api.jobs.js';
import { createCloudApiProvider, type CloudApiProviderDeps } from './cloud-api/cloud-api.provider.js';
import { createSandboxProvider } from './sandbox/sandbox.provider.js';
import { applySessionAction, startSession, type SessionControlDeps } from './session-control.js';
import { checkCloudApiConnection } from './cloud-api/cloud-api.session.js';

/**
 * What the registry's providers, jobs and session control use: the platform's ports
 * and the inbound pipeline (the Cloud API's jobs store what the webhook received).
 * Session control wakes the supervisor through `channels`, the registry itself.
 */
type ChannelsDeps = BaileysProviderDeps & CloudApiProviderDeps & CloudApiJobsDeps & SessionControlDeps & Pick<Platform, 'logger'>;

export interface ChannelRegistry extends ChannelGateway, CloudApiChannels {
  /**
   * Wires the providers, the Cloud API jobs and session control to the app's ports.
   * Called once while the app is built (app.ts), with the finished services.
   */
  attach(deps: ChannelsDeps): void;
  /** Baileys sessions running in this process (the session supervisor fills it). */
  readonly baileysSessions: BaileysSessionHub;
  /** Cross-node calls to Baileys sessions (set when REDIS_URL is: more than one node is possible). */
  setRelay(relay: BaileysRelay): void;
  /** Answers relayed calls for the sessions this node's supervisor (`nodeId`) holds. */
  serveRelay(nodeId: string): Promise<void>;
  onWake(listener: () => void): void;
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
  let attachedDeps: ChannelsDeps | null = null;

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
    attach(deps) {
      if (baileys) return;
      attachedDeps = deps;
      baileys = createBaileysProvider(deps, baileysSessions, () => relay);
      const provider = createCloudApiProvider(deps);
      const jobs = createCloudApiJobs(deps, provider, deps.logger.child({ module: 'channels' }));
      cloud = { provider, jobs };
      deps.jobs.register(jobs.webhook);
      deps.jobs.register(jobs.media);
    },
    cloudApi: () => attached(cloud),
    startSession: (connection) => startSession(attached(attachedDeps), connection),
    sessionAction: (connection, action) => applySessionAction(attached(attachedDeps), connection, action),
    async checkConnection(connection) {
      if (providerKindOf(connection.provider) === 'cloud-api') await checkCloudApiConnection(attached(attachedDeps), connection);
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
  };
}
