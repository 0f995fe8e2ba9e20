import type { RequestContext } from '../../platform/http/context.js';
import type { QuickMessageRow } from './quick-messages.presenter.js';

/**
 * Who may do what with a quick message: its owner and the company's admins
 * see and change it; everyone else sees it only when it is `geral` (for all)
 * and may not change it.
 */
export function canSeeQuickMessage(ctx: RequestContext, quickMessage: Pick<QuickMessageRow, 'userId' | 'geral'>): boolean {
  return quickMessage.geral || canEditQuickMessage(ctx, quickMessage);
}

export function canEditQuickMessage(ctx: RequestContext, quickMessage: Pick<QuickMessageRow, 'userId'>): boolean {
  return ctx.user.profile === 'admin' || quickMessage.userId === ctx.user.id;
}

/** Whether a new quick message is for the whole team when the body does not say: an admin's is, an agent's is their own. */
export function sharedByDefault(ctx: RequestContext): boolean {
  return ctx.user.profile === 'admin';
}
