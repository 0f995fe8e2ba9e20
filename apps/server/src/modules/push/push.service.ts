import type { PushSettings, PushSettingsBody, PushSubscriptionBody } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { checkOutboundUrl, OutboundRefusedError, outboundPolicy } from '../../platform/http/outbound.js';
import type { Platform } from '../../platform/platform.js';
import { deleteOwnSubscription, loadPushSettings, saveSubscription, updatePushSettings } from './push.repo.js';

export type PushRoutesDeps = Pick<Platform, 'db' | 'config' | 'logger'>;

/** `GET /push/settings`: the caller's own choices and how many of its browsers are subscribed. */
export async function showPushSettings(deps: PushRoutesDeps, ctx: RequestContext): Promise<PushSettings> {
  const settings = await loadPushSettings(deps.db, ctx, ctx.user.id);
  if (!settings) throw new AppError('ERR_USER_DONT_EXISTS');
  return settings;
}

/** `PUT /push/settings`: the kinds sent change; the others keep their value. */
export async function changePushSettings(deps: PushRoutesDeps, ctx: RequestContext, body: PushSettingsBody): Promise<PushSettings> {
  await updatePushSettings(deps.db, ctx, ctx.user.id, body);
  return showPushSettings(deps, ctx);
}

/**
 * `POST /push/subscriptions`: this browser's subscription, for the caller. The endpoint is
 * a URL the server will call, so it passes the outgoing URL policy (no loopback, private or
 * metadata address unless OUTBOUND_ALLOW_PRIVATE names it; checked again at every send).
 * An endpoint another user subscribed (a shared browser) is refused with 409: the browser
 * then makes a new subscription, and the old one ends at the push service.
 */
export async function subscribePush(deps: PushRoutesDeps, ctx: RequestContext, body: PushSubscriptionBody): Promise<PushSettings> {
  try {
    await checkOutboundUrl(outboundPolicy(deps.config), body.endpoint, 2_000);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new AppError('ERR_PUSH_ENDPOINT_REFUSED', undefined, { fields: { endpoint: ['validation.invalidValue'] } });
    throw error;
  }
  const row = await saveSubscription(deps.db, ctx, ctx.user.id, {
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    language: body.language ?? null,
  });
  if (!row) throw new AppError('ERR_PUSH_ENDPOINT_TAKEN');
  deps.logger.child({ module: 'push' }).info({ companyId: ctx.companyId, userId: ctx.user.id, subscriptionId: row.id, pushService: new URL(body.endpoint).host }, 'push subscription saved');
  return showPushSettings(deps, ctx);
}

/** `DELETE /push/subscriptions`: the caller's own subscription of this browser (sign-out, or turned off). */
export async function unsubscribePush(deps: PushRoutesDeps, ctx: RequestContext, endpoint: string): Promise<PushSettings> {
  if (!(await deleteOwnSubscription(deps.db, ctx, ctx.user.id, endpoint))) throw new AppError('ERR_NO_PUSH_SUBSCRIPTION_FOUND');
  return showPushSettings(deps, ctx);
}
