import { isAllowedSettingValue, isPlatformSetting, isSettingKey, SETTING_DEFINITIONS, settingVisibility, SettingUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { AppError } from '../../platform/http/app-error.js';
import { requireAdmin, requireSuper } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { openSecretSetting, presentSetting, presentSettings } from './settings.presenter.js';
import { findSetting, listSettings, upsertSetting } from './settings.repo.js';

const KeyParams = z.object({ key: z.string().max(100) });

export function registerSettingRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/settings', { schema: { querystring: z.object({ key: z.string().max(100).optional() }) } }, async (request) => {
    const all = presentSettings(await listSettings(services.db, request.ctx), request.ctx.user.profile, services.secrets);
    return request.query.key ? all.filter((s) => s.key === request.query.key) : all;
  });

  app.get('/settings/:key', { schema: { params: KeyParams } }, async (request) => {
    const stored = await findSetting(services.db, request.ctx, request.params.key);
    // A setting the caller may not read answers as if it did not exist.
    const setting = stored && presentSetting(stored, request.ctx.user.profile, services.secrets);
    if (!setting) throw new AppError('ERR_NO_SETTING_FOUND');
    return setting;
  });

  app.put('/settings/:key', { schema: { params: KeyParams, body: SettingUpdateBody } }, async (request) => {
    requireAdmin(request.ctx);
    const { key } = request.params;
    if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND');
    if (isPlatformSetting(key)) requireSuper(request.ctx);
    const { value } = request.body;
    if (!isAllowedSettingValue(key, value)) {
      const allowed = SETTING_DEFINITIONS[key].values;
      throw new AppError('ERR_VALIDATION', undefined, {
        message: `Invalid value for ${key}`,
        fields: { value: [allowed ? `Must be one of: ${allowed.join(', ')}` : 'Too Long!'] },
      });
    }
    let stored = value;
    if (settingVisibility(key) === 'secret') {
      const current = await findSetting(services.db, request.ctx, key);
      const shown = current && presentSetting(current, request.ctx.user.profile, services.secrets);
      if (current && shown && value !== '' && value === shown.value) {
        // The masked value sent back unchanged keeps the stored secret (sealed now if an older row held it plain).
        const plain = openSecretSetting(current.value, services.secrets);
        stored = plain ? services.secrets.seal(plain) : current.value;
      } else {
        stored = value ? services.secrets.seal(value) : '';
      }
    }
    const row = await upsertSetting(services.db, request.ctx, key, stored);
    const setting = row && presentSetting(row, request.ctx.user.profile, services.secrets);
    if (!setting) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
    services.events.emit('setting.updated', { companyId: request.ctx.companyId, setting });
    return setting;
  });
}
