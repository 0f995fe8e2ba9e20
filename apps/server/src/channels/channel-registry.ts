import type { Db } from '../platform/db/client.js';
import { AppError } from '../platform/http/app-error.js';
import type { Platform } from '../platform/platform.js';
import { createBaileysProvider, type BaileysLocalProvider, type BaileysProviderDeps } from './baileys/baileys.provider.js';
import type { BaileysRelay } from './baileys/baileys-relay.js';
import type { BaileysSessionHub } from './baileys/baileys-session.js';
import { providerKindOf, type ChannelGateway, type ChannelProvider, type ProviderKind } from '../modules/connections/channel-provider.js';
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
type ChannelsDeps = BaileysProviderDeps & CloudApiProviderDeps & CloudApiJobsDeps & SessionControlDeps & Pick<Platform, 'logger' | 'metrics'>;

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

/**
 * The provider with its sends counted and timed (`atende_outgoing_sends_total`): every
 * message the product hands a channel, whoever sends it (an agent, the bot, a campaign,
 * the external API), passes here. A refusal and a failure both count as failed.
 */
function countingSends(provider: ChannelProvider, metrics: Platform['metrics']): ChannelProvider {
  if (!metrics.enabled) return provider;
  const timed = async <T>(send: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      const sent = await send();
      metrics.outgoingSend(provider.kind, 'sent', (performance.now() - started) / 1000);
      return sent;
    } catch (error) {
      metrics.outgoingSend(provider.kind, 'failed', (performance.now() - started) / 1000);
      throw error;
    }
  };
  const { sendTemplate } = provider;
  return {
    ...provider,
    send: (connection, message) => timed(() => provider.send(connection, message)),
    ...(sendTemplate ? { sendTemplate: (connection, to, template) => timed(() => sendTemplate.call(provider, connection, to, template)) } : {}),
  };
}

export function createChannelRegistry(db: Db): ChannelRegistry {
  let sandbox = createSandboxProvider(db);
  const baileysSessions: BaileysSessionHub = new Map();
  const wakeListeners: (() => void)[] = [];
  let baileys: BaileysLocalProvider | null = null;
  let relay: BaileysRelay | null = null;
  let cloud: CloudApiChannel | null = null;
  /** What `providerFor` answers: the providers with their sends counted (set by attach). */
  let sending: { baileys: ChannelProvider; cloud: ChannelProvider } | null = null;
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
          return attached(sending).baileys;
        case 'cloud-api':
          return attached(sending).cloud;
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
      sandbox = countingSends(sandbox, deps.metrics);
      sending = { baileys: countingSends(baileys, deps.metrics), cloud: countingSends(provider, deps.metrics) };
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
