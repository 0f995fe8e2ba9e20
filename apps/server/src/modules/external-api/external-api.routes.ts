import { ExternalSendBody } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/app-error.js';
import { authorizeExternalApi, sendExternalMessage, type ExternalApiDeps, type ExternalSendInput } from './external-api.service.js';

function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/** JSON `{number, body}`, or multipart with the fields `number`, `body` and files in `medias`. */
async function readInput(request: FastifyRequest): Promise<ExternalSendInput> {
  const files: ExternalSendInput['files'] = [];
  let fields: Record<string, unknown> = {};
  if (request.isMultipart()) {
    const collected: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'medias') throw new AppError('ERR_VALIDATION', undefined, { message: `Unexpected file field ${part.fieldname}` });
        files.push({ data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype });
      } else if (typeof part.value === 'string') {
        collected[part.fieldname] = part.value;
      }
    }
    fields = collected;
  } else {
    fields = (request.body ?? {}) as Record<string, unknown>;
  }
  const parsed = ExternalSendBody.safeParse(fields);
  if (!parsed.success) throw parsed.error;
  return { ...parsed.data, files };
}

/**
 * The external send API (public: the connection's token is the credential).
 * The token (and the plan) is checked before the payload is read, so a caller
 * without a valid one learns nothing about it.
 */
export function registerExternalApiRoutes(app: FastifyInstance, deps: ExternalApiDeps): void {
  app.post('/api/messages/send', async (request, reply) => {
    const token = bearerOf(request);
    if (!token) throw new AppError('ERR_INVALID_API_TOKEN');
    const connection = await authorizeExternalApi(deps, token);
    const input = await readInput(request);
    const result = await sendExternalMessage(deps, connection, input);
    return reply.status(200).send(result);
  });
}
