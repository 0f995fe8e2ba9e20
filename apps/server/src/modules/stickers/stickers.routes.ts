import { flag, id } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import type { UploadedFile } from '../../platform/storage/media-storage.js';
import { sendMedia } from '../../platform/storage/media.routes.js';
import { presentSticker, signedLinkOfV6Sticker } from './stickers.presenter.js';
import { createSticker, deleteSticker, listStickers, type StickersDeps } from './stickers.service.js';

const StickerParams = z.object({ stickerId: id() });

/** v6's form: the image in `sticker` (or `file`, as other uploads here), `isShared` ("true": the company's); `typeArch` is a folder hint, ignored. */
async function readStickerForm(request: FastifyRequest): Promise<{ file: UploadedFile; shared: boolean }> {
  if (!request.isMultipart()) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send the image as multipart/form-data', fields: { sticker: ['Required'] } });
  let file: UploadedFile | undefined;
  let shared: unknown;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if ((part.fieldname !== 'sticker' && part.fieldname !== 'file') || file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one image in the field "sticker"', fields: { sticker: ['Send one image'] } });
      file = { data: await part.toBuffer(), fileName: part.filename || 'sticker.webp', mimeType: part.mimetype };
    } else if (part.fieldname === 'isShared') {
      shared = part.value;
    }
  }
  if (!file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one image in the field "sticker"', fields: { sticker: ['Required'] } });
  const parsed = flag().optional().safeParse(shared === '' ? undefined : shared);
  if (!parsed.success) throw new AppError('ERR_VALIDATION', undefined, { fields: { isShared: ['Invalid value'] } });
  return { file, shared: parsed.data ?? false };
}

export function registerStickerRoutes(scope: FastifyInstance, deps: StickersDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/stickers', async (request) => (await listStickers(deps, request.ctx)).map((sticker) => presentSticker(sticker, deps.media)));

  app.post('/stickers', async (request, reply) => {
    const { file, shared } = await readStickerForm(request);
    return reply.status(201).send(presentSticker(await createSticker(deps, request.ctx, file, shared), deps.media));
  });

  app.delete('/stickers/:stickerId', { schema: { params: StickerParams } }, async (request) => {
    await deleteSticker(deps, request.ctx, request.params.stickerId);
    return { message: 'Sticker deleted' };
  });
}

/** The file name is a link (beyond a named parameter's 100 characters): the rest of the path. */
const V6StickerParams = z.object({
  companyDir: z.string().regex(/^company\d{1,10}$/, 'validation.invalidValue'),
  '*': z.string().max(2000).regex(/^[\w-]+$/, 'validation.invalidValue'),
});

/** whaticket v6's sticker images (`/public/company{id}/stickers/salvos/:file`): the image of the signed link the name carries. */
export function registerStickerPublicRoutes(scope: FastifyInstance, deps: Pick<StickersDeps, 'media'>): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/public/:companyDir/stickers/salvos/*', { schema: { params: V6StickerParams } }, async (request, reply) => {
    const link = signedLinkOfV6Sticker(Number(request.params.companyDir.slice('company'.length)), request.params['*']);
    if (!link) throw new AppError('ERR_NOT_FOUND');
    return sendMedia(reply, await deps.media.open(link.relativePath, link.expires, link.signature));
  });
}
