import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';

/**
 * whaticket v6's "transcribe audio" (`GET /messages/transcribeAudio/:fileName`, from a menu its
 * entry never loads): Atende has no speech-to-text (its AI answers through the prompts'
 * chat models), so the call is answered with a clear refusal rather than a missing route.
 */
export function registerTranscriptionRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/messages/transcribeAudio/:fileName', { schema: { params: z.object({ fileName: z.string().min(1).max(255) }) } }, async () => {
    throw new AppError('ERR_TRANSCRIPTION_UNAVAILABLE', undefined, { message: 'Audio transcription is not available' });
  });
}
