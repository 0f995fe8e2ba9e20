import { can, type PermissionRule, type PlanFeature } from '@atende/shared';
import { AppError } from './app-error.js';
import type { RequestContext } from './context.js';

/** Server-side enforcement of the shared permission table (spec part 1 §6). */
export function authorize(ctx: RequestContext, rule: PermissionRule): void {
  if (!can(ctx.user, rule)) throw new AppError('ERR_NO_PERMISSION');
}

export function requireAdmin(ctx: RequestContext): void {
  if (ctx.user.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION');
}

export function requireSuper(ctx: RequestContext): void {
  if (!ctx.user.super) throw new AppError('ERR_NO_PERMISSION');
}

export function requireFeature(ctx: RequestContext, feature: PlanFeature): void {
  if (!ctx.company.plan[feature]) throw new AppError('ERR_PLAN_FEATURE_DISABLED', undefined, { feature });
}

/**
 * Route hook form of requireSuper: runs before body validation, so a caller
 * without the right learns nothing about the payload a route expects.
 */
export async function superOnly(request: { ctx: RequestContext }): Promise<void> {
  requireSuper(request.ctx);
}
