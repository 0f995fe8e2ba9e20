import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../http/zod-provider.js';
import type { Platform } from '../platform.js';
import { mediaTypeOf, type MediaStorage } from './media-storage.js';

type OpenedMedia = Awaited<ReturnType<MediaStorage['open']>>;

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
};

/**
 * Media are served by signed, expiring URLs: a browser can put them in <img>
 * (which sends no bearer token), and only users who were shown the message got
 * the URL. Files are always sent as downloads except images, audio and video.
 */
export function registerMediaRoutes(scope: FastifyInstance, deps: Pick<Platform, 'media'>): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/media/*',
    { schema: { querystring: z.object({ expires: z.string().max(20), signature: z.string().max(100) }) } },
    async (request, reply) => {
      const relativePath = decodeURIComponent((request.params as { '*': string })['*']);
      return sendMedia(reply, await deps.media.open(relativePath, request.query.expires, request.query.signature));
    },
  );
}

/** A media file as every media address sends it: its type by its name, a download unless an image, audio or video. */
export function sendMedia(reply: FastifyReply, file: OpenedMedia): FastifyReply {
  const ext = file.name.slice(file.name.lastIndexOf('.')).toLowerCase();
  const contentType = CONTENT_TYPES[ext] ?? 'application/octet-stream';
  const inline = mediaTypeOf(contentType) !== 'application';
  return reply
    .header('content-type', contentType)
    .header('content-length', file.size)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=3600')
    .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${encodeURIComponent(file.name)}"`)
    .send(file.stream);
}
