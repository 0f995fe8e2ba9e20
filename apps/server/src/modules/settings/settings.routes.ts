import { SettingUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentSettings, presentVisibleSetting } from './settings.presenter.js';
import { listCompanySettings, showSetting, updateSetting, type SettingsDeps } from './settings.service.js';

const KeyParams = z.object({ key: z.string().max(100) });

export function registerSettingRoutes(scope: FastifyInstance, deps: SettingsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/settings', { schema: { querystring: z.object({ key: z.string().max(100).optional() }) } }, async (request) => {
    return presentSettings(await listCompanySettings(deps, request.ctx, request.query.key), request.ctx.user.profile, deps.secrets);
  });

  app.get('/settings/:key', { schema: { params: KeyParams } }, async (request) => {
    return presentVisibleSetting(await showSetting(deps, request.ctx, request.params.key), deps.secrets);
  });

  app.put('/settings/:key', { schema: { params: KeyParams, body: SettingUpdateBody } }, async (request) => {
    return updateSetting(deps, request.ctx, request.params.key, request.body.value);
  });
}
