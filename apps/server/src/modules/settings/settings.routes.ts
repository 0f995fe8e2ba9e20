import { SettingUpdateBody } from '@atende/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/app-error.js';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentSettings, presentVisibleSetting } from './settings.presenter.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { listCompanySettings, showSetting, storeSettingUpload, updateSetting, V6_MEDIA_REFS, v6LogoFile, type SettingUploadDeps } from './settings.service.js';

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
  const MediaRef = z.object({ ref: z.enum(V6_MEDIA_REFS, { error: 'validation.invalidValue' }).default('login') });
  app.post('/settings/media-upload', { schema: { querystring: MediaRef } }, async (request) => {
    const stored = await storeSettingUpload(deps, request.ctx, request.query.ref, () => readUpload(request));
    return { mensagem: 'Arquivo Anexado', key: stored.key, filename: stored.name };
  });
  // Its whitelabel logo (a file its entry never loads): the file, and `mode` Light or Dark.
  app.post('/settings/logo', async (request) => {
    const { file, fields } = await readForm(request);
    const mode = fields.mode === 'Dark' ? 'Dark' : 'Light';
    const stored = await storeSettingUpload(deps, request.ctx, mode === 'Dark' ? 'logoDark' : 'logoLight', async () => file);
    return { mensagem: 'Arquivo Anexado', key: stored.key, filename: stored.name, mode };
  });
  app.post('/settings/gerencianet-cert-upload', async (request) => {
    const stored = await storeSettingUpload(deps, request.ctx, 'gerencianetCert', () => readUpload(request));
    return { setting: { key: stored.key, value: stored.name }, value: stored.name, key: stored.key, filename: stored.name };
  });
}

/** One file in `file` and the form's text fields (whichever order they come in). */
async function readForm(request: FastifyRequest): Promise<{ file: { data: Buffer; fileName: string; mimeType: string }; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send the file as multipart/form-data', fields: { file: ['Required'] } });
  let file: { data: Buffer; fileName: string; mimeType: string } | undefined;
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one file in the field "file"' });
      file = { data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value.slice(0, 100);
    }
  }
  if (!file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one file in the field "file"', fields: { file: ['Required'] } });
  return { file, fields };
}

/** whaticket v6's logo addresses, public as there (its login page shows them): the platform's images or Atende's. */
export function registerSettingPublicRoutes(scope: FastifyInstance, deps: SettingUploadDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const LogoFile = z.object({ file: z.string().regex(/^[\w-]{1,40}\.(png|jpe?g|gif|webp|svg|ico)$/i, 'validation.invalidValue') });
  const sendLogo = async (file: string, reply: FastifyReply) => {
    const logo = await v6LogoFile(deps, file);
    return reply.header('content-type', logo.type).header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').send(logo.data);
  };
  app.get('/public/logotipos/:file', { schema: { params: LogoFile } }, async (request, reply) => sendLogo(request.params.file, reply));
  app.get('/public/:companyDir/logotipos/:file', { schema: { params: LogoFile.extend({ companyDir: z.string().regex(/^company\d{1,10}$/, 'validation.invalidValue') }) } }, async (request, reply) =>
    sendLogo(request.params.file, reply),
  );
}
