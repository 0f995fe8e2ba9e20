import { SettingUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentSettings, presentVisibleSetting } from './settings.presenter.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { listCompanySettings, showSetting, storeSettingUpload, updateSetting, V6_UPLOAD_REFS, type SettingUploadDeps } from './settings.service.js';

const KeyParams = z.object({ key: z.string().max(100) });

export function registerSettingRoutes(scope: FastifyInstance, deps: SettingUploadDeps): void {
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

  // whaticket v6's platform uploads (super users): the login page's images and the Gerencianet certificate.
  const MediaRef = z.object({ ref: z.enum(V6_UPLOAD_REFS.filter((ref) => ref !== 'gerencianetCert') as ['login'], { error: 'validation.invalidValue' }).default('login') });
  app.post('/settings/media-upload', { schema: { querystring: MediaRef } }, async (request) => {
    const stored = await storeSettingUpload(deps, request.ctx, request.query.ref, () => readUpload(request));
    return { mensagem: 'Arquivo Anexado', key: stored.key, filename: stored.name };
  });
  app.post('/settings/gerencianet-cert-upload', async (request) => {
    const stored = await storeSettingUpload(deps, request.ctx, 'gerencianetCert', () => readUpload(request));
    return { setting: { key: stored.key, value: stored.name }, value: stored.name, key: stored.key, filename: stored.name };
  });
}
