import type { QuickMessageBody, QuickMessageListQuery, QuickMessageUpdateBody } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import { assertKnownVariables } from '../messages/message-variables.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { canEditQuickMessage, canSeeQuickMessage, sharedByDefault } from './quick-messages.policy.js';
import type { QuickMessageRow } from './quick-messages.presenter.js';
import {
  deleteQuickMessageRow,
  findQuickMessage,
  insertQuickMessage,
  listQuickMessagePage,
  listUsableQuickMessages,
  updateQuickMessageRow,
} from './quick-messages.repo.js';

/** The quick messages module's ports: the database, the domain events and the attachments' storage. */
export type QuickMessagesDeps = Pick<Platform, 'db' | 'events' | 'media'>;

export interface MediaFile {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

/** The quick messages page: those the caller may see, searched over shortcode and message, 20 a page. */
export async function listQuickMessages(deps: QuickMessagesDeps, ctx: RequestContext, query: QuickMessageListQuery) {
  return listQuickMessagePage(deps.db, ctx, query);
}

/** The composer's '/' suggestions: the caller's own and the `geral` ones, active only. */
export async function listQuickMessageSuggestions(deps: QuickMessagesDeps, ctx: RequestContext): Promise<QuickMessageRow[]> {
  return listUsableQuickMessages(deps.db, ctx);
}

/** Another company's quick message is not found; a colleague's private one is not permitted. */
export async function showQuickMessage(deps: QuickMessagesDeps, ctx: RequestContext, id: number): Promise<QuickMessageRow> {
  const quickMessage = await findQuickMessage(deps.db, ctx, id);
  if (!quickMessage) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  if (!canSeeQuickMessage(ctx, quickMessage)) throw new AppError('ERR_NO_PERMISSION');
  return quickMessage;
}

async function editableQuickMessage(deps: QuickMessagesDeps, ctx: RequestContext, id: number): Promise<QuickMessageRow> {
  const quickMessage = await showQuickMessage(deps, ctx, id);
  if (!canEditQuickMessage(ctx, quickMessage)) throw new AppError('ERR_NO_PERMISSION');
  return quickMessage;
}

function saved(deps: QuickMessagesDeps, ctx: RequestContext, quickMessage: QuickMessageRow | null, previous: QuickMessageRow): QuickMessageRow {
  // Deleted between the check and the write.
  if (!quickMessage) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  deps.events.emit('quickMessage.saved', { companyId: ctx.companyId, action: 'update', quickMessage, previous });
  return quickMessage;
}

/** The owner is always the caller (`userId` and `companyId` in the body are ignored). */
export async function createQuickMessage(deps: QuickMessagesDeps, ctx: RequestContext, body: QuickMessageBody): Promise<QuickMessageRow> {
  assertKnownVariables({ message: body.message });
  const quickMessage = await insertQuickMessage(deps.db, ctx, {
    userId: ctx.user.id,
    shortcode: body.shortcode,
    message: body.message,
    geral: body.geral ?? sharedByDefault(ctx),
    status: body.status ?? true,
    editBeforeSend: body.editBeforeSend ?? false,
  });
  deps.events.emit('quickMessage.saved', { companyId: ctx.companyId, action: 'create', quickMessage });
  return quickMessage;
}

export async function updateQuickMessage(deps: QuickMessagesDeps, ctx: RequestContext, id: number, body: QuickMessageUpdateBody): Promise<QuickMessageRow> {
  const previous = await editableQuickMessage(deps, ctx, id);
  assertKnownVariables({ message: body.message }, {}, { message: previous.message });
  const updated = await updateQuickMessageRow(deps.db, ctx, id, {
    shortcode: body.shortcode,
    message: body.message,
    geral: body.geral,
    status: body.status,
    editBeforeSend: body.editBeforeSend,
  });
  return saved(deps, ctx, updated, previous);
}

export async function deleteQuickMessage(deps: QuickMessagesDeps, ctx: RequestContext, id: number): Promise<void> {
  const quickMessage = await editableQuickMessage(deps, ctx, id);
  await deleteQuickMessageRow(deps.db, ctx, id);
  if (quickMessage.mediaPath) await deps.media.remove(ctx, quickMessage.mediaPath);
  deps.events.emit('quickMessage.deleted', { companyId: ctx.companyId, quickMessage });
}

/**
 * Attaches a file. Storage sanitizes the name (spaces become underscores,
 * spec part 2 §5), enforces size and type limits and files it under the company.
 */
export async function attachQuickMessageMedia(
  deps: QuickMessagesDeps,
  ctx: RequestContext,
  id: number,
  readFile: () => Promise<MediaFile>,
): Promise<QuickMessageRow> {
  const previous = await editableQuickMessage(deps, ctx, id);
  const stored = await deps.media.save(ctx, await readFile());
  const updated = await updateQuickMessageRow(deps.db, ctx, id, { mediaPath: stored.path, mediaName: stored.name });
  if (previous.mediaPath) await deps.media.remove(ctx, previous.mediaPath);
  return saved(deps, ctx, updated, previous);
}

export async function removeQuickMessageMedia(deps: QuickMessagesDeps, ctx: RequestContext, id: number): Promise<QuickMessageRow> {
  const previous = await editableQuickMessage(deps, ctx, id);
  const updated = await updateQuickMessageRow(deps.db, ctx, id, { mediaPath: null, mediaName: null });
  if (previous.mediaPath) await deps.media.remove(ctx, previous.mediaPath);
  return saved(deps, ctx, updated, previous);
}
