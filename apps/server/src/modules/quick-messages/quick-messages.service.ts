import type { QuickMessageBody, QuickMessageUpdateBody } from '@atende/shared';
import type { AppServices } from '../../app.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { canEditQuickMessage, canSeeQuickMessage } from './quick-messages.policy.js';
import type { QuickMessageRow } from './quick-messages.presenter.js';
import { deleteQuickMessageRow, findQuickMessage, insertQuickMessage, updateQuickMessageRow } from './quick-messages.repo.js';

export interface MediaFile {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

/** Another company's quick message is not found; a colleague's private one is not permitted. */
export async function showQuickMessage(services: AppServices, ctx: RequestContext, id: number): Promise<QuickMessageRow> {
  const quickMessage = await findQuickMessage(services.db, ctx, id);
  if (!quickMessage) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  if (!canSeeQuickMessage(ctx, quickMessage)) throw new AppError('ERR_NO_PERMISSION');
  return quickMessage;
}

async function editableQuickMessage(services: AppServices, ctx: RequestContext, id: number): Promise<QuickMessageRow> {
  const quickMessage = await showQuickMessage(services, ctx, id);
  if (!canEditQuickMessage(ctx, quickMessage)) throw new AppError('ERR_NO_PERMISSION');
  return quickMessage;
}

function saved(services: AppServices, ctx: RequestContext, quickMessage: QuickMessageRow | null, previous: QuickMessageRow): QuickMessageRow {
  // Deleted between the check and the write.
  if (!quickMessage) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  services.events.emit('quickMessage.saved', { companyId: ctx.companyId, action: 'update', quickMessage, previous });
  return quickMessage;
}

/** The owner is always the caller (`userId` and `companyId` in the body are ignored). */
export async function createQuickMessage(services: AppServices, ctx: RequestContext, body: QuickMessageBody): Promise<QuickMessageRow> {
  const quickMessage = await insertQuickMessage(services.db, ctx, {
    userId: ctx.user.id,
    shortcode: body.shortcode,
    message: body.message,
    geral: body.geral ?? false,
    status: body.status ?? true,
  });
  services.events.emit('quickMessage.saved', { companyId: ctx.companyId, action: 'create', quickMessage });
  return quickMessage;
}

export async function updateQuickMessage(services: AppServices, ctx: RequestContext, id: number, body: QuickMessageUpdateBody): Promise<QuickMessageRow> {
  const previous = await editableQuickMessage(services, ctx, id);
  const updated = await updateQuickMessageRow(services.db, ctx, id, {
    shortcode: body.shortcode,
    message: body.message,
    geral: body.geral,
    status: body.status,
  });
  return saved(services, ctx, updated, previous);
}

export async function deleteQuickMessage(services: AppServices, ctx: RequestContext, id: number): Promise<void> {
  const quickMessage = await editableQuickMessage(services, ctx, id);
  await deleteQuickMessageRow(services.db, ctx, id);
  if (quickMessage.mediaPath) await services.media.remove(ctx, quickMessage.mediaPath);
  services.events.emit('quickMessage.deleted', { companyId: ctx.companyId, quickMessage });
}

/**
 * Attaches a file. Storage sanitizes the name (spaces become underscores,
 * spec part 2 §5), enforces size and type limits and files it under the company.
 */
export async function attachQuickMessageMedia(
  services: AppServices,
  ctx: RequestContext,
  id: number,
  readFile: () => Promise<MediaFile>,
): Promise<QuickMessageRow> {
  const previous = await editableQuickMessage(services, ctx, id);
  const stored = await services.media.save(ctx, await readFile());
  const updated = await updateQuickMessageRow(services.db, ctx, id, { mediaPath: stored.path, mediaName: stored.name });
  if (previous.mediaPath) await services.media.remove(ctx, previous.mediaPath);
  return saved(services, ctx, updated, previous);
}

export async function removeQuickMessageMedia(services: AppServices, ctx: RequestContext, id: number): Promise<QuickMessageRow> {
  const previous = await editableQuickMessage(services, ctx, id);
  const updated = await updateQuickMessageRow(services.db, ctx, id, { mediaPath: null, mediaName: null });
  if (previous.mediaPath) await services.media.remove(ctx, previous.mediaPath);
  return saved(services, ctx, updated, previous);
}
