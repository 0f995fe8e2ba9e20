import type { WhatsappRow } from '../../platform/db/schema.js';
import type { SendFailure } from '../../modules/messages/messages.repo.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Platform } from '../../platform/platform.js';
import type { ChannelProvider, OutgoingMessage, SentMessage } from '../../modules/connections/channel-provider.js';
import { isGroupContact } from '../channels.repo.js';
import { noteConnectionProblem, type ConnectionProblemDeps } from '../connection-problems.js';
import { cloudErrorCode } from './cloud-api.mapper.js';
import { isCloudApiConfigured, readCloudApiSettings } from '../../modules/connections/cloud-api-settings.js';
import { customerWindow } from './customer-window.js';
import { createGraphApiClient, GraphApiError, type GraphApiClient, type GraphTemplate } from './graph-api.client.js';

interface TemplateMessage {
  name: string;
  language: string;
  parameters: string[];
}

export interface CloudApiProvider extends ChannelProvider {
  client(connection: WhatsappRow): GraphApiClient;
  sendTemplate(connection: WhatsappRow, to: string, template: TemplateMessage): Promise<SentMessage>;
  listTemplates(connection: WhatsappRow): Promise<GraphTemplate[]>;
}

/** The sealed settings, the customer window, the outgoing media files, and the problems noted on the connection. */
export type CloudApiProviderDeps = ConnectionProblemDeps & Pick<Platform, 'db' | 'secrets' | 'config' | 'media'>;

/**
 * A refused send as our error, carrying what Meta said of it (`failure`: code, title,
 * details; kept on the failed message). A token Meta no longer accepts also flags the
 * connection for its admins; Meta's temporary failures, still there after the client's
 * retries, answer 503 `ERR_WA_UNAVAILABLE` (try again later) rather than a 400.
 */
async function sendError(deps: ConnectionProblemDeps, connection: WhatsappRow, error: unknown): Promise<AppError> {
  if (error instanceof AppError) return error;
  if (!(error instanceof GraphApiError)) return new AppError('ERR_SENDING_WAPP_MSG');
  const failure: SendFailure = { ...(error.code !== null ? { code: error.code } : {}), ...error.details };
  if (error.code === 190 || error.status === 401) {
    await noteConnectionProblem(deps, connection, 'ERR_WA_TOKEN_INVALID', { message: error.message });
    return new AppError('ERR_WA_TOKEN_INVALID', undefined, { failure });
  }
  const code = cloudErrorCode(error.code);
  return new AppError(code === 'ERR_SENDING_WAPP_MSG' && error.transient ? 'ERR_WA_UNAVAILABLE' : code, undefined, { failure });
}

/**
 * The official WhatsApp Business Cloud API. Sends go to the Graph API; what
 * arrives comes through the webhook (cloud-api.webhook.routes.ts). Free-form
 * messages are refused outside the customer's 24-hour window; templates are not.
 */
export function createCloudApiProvider(deps: CloudApiProviderDeps): CloudApiProvider {
  function client(connection: WhatsappRow): GraphApiClient {
    const settings = readCloudApiSettings(connection, deps.secrets, deps.config.GRAPH_API_BASE_URL);
    if (!isCloudApiConfigured(settings)) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return createGraphApiClient(settings);
  }

  async function mediaPayload(api: GraphApiClient, message: OutgoingMessage): Promise<Record<string, unknown>> {
    const media = message.media;
    if (!media) return { type: 'text', text: { body: message.body, preview_url: false } };
    const data = await deps.media.read(media.path);
    const id = await api.uploadMedia(data, media.mimeType, media.name);
    const caption = message.body || undefined;
    // Meta takes stickers as WebP only; another image goes as an image.
    if (message.sticker && media.mimeType === 'image/webp') return { type: 'sticker', sticker: { id } };
    switch (media.mediaType) {
      case 'image':
        return { type: 'image', image: { id, caption } };
      case 'video':
        return { type: 'video', video: { id, caption } };
      case 'audio':
        return { type: 'audio', audio: { id } };
      default:
        return { type: 'document', document: { id, caption, filename: media.name } };
    }
  }

  /** Whom a send goes to: a customer's number, or a group's id (Meta's groups: `recipient_type: 'group'`). */
  async function recipient(connection: WhatsappRow, to: string): Promise<{ to: string; recipient_type?: 'group' }> {
    return (await isGroupContact(deps.db, connection, to)) ? { to, recipient_type: 'group' } : { to };
  }

  /** Sending through a connection an admin disconnected (or whose token failed its check) is refused. */
  function sendingClient(connection: WhatsappRow): GraphApiClient {
    if (connection.status === 'DISCONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return client(connection);
  }

  return {
    kind: 'cloud-api',
    client,
    async send(connection, message) {
      const api = sendingClient(connection);
      const window = await customerWindow(deps.db, connection, message.to);
      if (!window.open) throw new AppError('ERR_OUTSIDE_CUSTOMER_WINDOW');
      try {
        const payload = await mediaPayload(api, message);
        const sent = await api.sendMessage({
          ...(await recipient(connection, message.to)),
          ...payload,
          ...(message.quotedExternalId ? { context: { message_id: message.quotedExternalId } } : {}),
          // Meta hands it back on the send's statuses: a send whose answer we never stored is still recognised.
          ...(message.idempotencyKey ? { biz_opaque_callback_data: message.idempotencyKey } : {}),
        });
        return { externalId: sent.id, ack: 1, ...(sent.status ? { data: { channelStatus: sent.status } } : {}) };
      } catch (error) {
        throw await sendError(deps, connection, error);
      }
    },
    async sendTemplate(connection, to, template) {
      const api = sendingClient(connection);
      const components = template.parameters.length
        ? [{ type: 'body', parameters: template.parameters.map((text) => ({ type: 'text', text })) }]
        : undefined;
      try {
        const sent = await api.sendMessage({ ...(await recipient(connection, to)), type: 'template', template: { name: template.name, language: { code: template.language }, components } });
        return { externalId: sent.id, ack: 1, ...(sent.status ? { data: { channelStatus: sent.status } } : {}) };
      } catch (error) {
        throw await sendError(deps, connection, error);
      }
    },
    async listTemplates(connection) {
      // A disconnected connection sends nothing: its templates are not offered either.
      const api = sendingClient(connection);
      try {
        return await api.listTemplates();
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      }
    },
    // No editMessage: the Cloud API cannot edit a message a business sent (the service answers ERR_EDIT_NOT_SUPPORTED).
    async react(connection, target, emoji) {
      const api = sendingClient(connection);
      // A reaction is a free-form message: the customer's 24-hour window applies to it too.
      const window = await customerWindow(deps.db, connection, target.to);
      if (!window.open) throw new AppError('ERR_OUTSIDE_CUSTOMER_WINDOW');
      try {
        await api.sendMessage({ ...(await recipient(connection, target.to)), type: 'reaction', reaction: { message_id: target.externalId, emoji } });
      } catch (error) {
        throw await sendError(deps, connection, error);
      }
    },
    async deleteMessage() {
      // The Cloud API cannot delete a message for everyone.
      throw new AppError('ERR_DELETE_WAPP_MSG');
    },
    async markRead(connection, _to, externalIds) {
      const api = client(connection);
      // Read receipts are a courtesy: a bounded number per opening, each one best effort.
      for (const id of externalIds.slice(-20)) await api.markRead(id).catch(() => undefined);
    },
    async checkNumber(_connection, number) {
      // The Cloud API has no lookup: a plausible international number is accepted; delivery failures come back as statuses.
      const digits = number.replace(/\D/g, '');
      return { exists: digits.length >= 8 && digits.length <= 15, number: digits };
    },
  };
}
