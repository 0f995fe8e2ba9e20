import { ExternalSendBody } from '@atende/shared';
import { z } from 'zod';
import { ApiError, requestIdOf } from '../../api/http-client';

/** Spec part 2 §7: the external API's one route. */
export const EXTERNAL_SEND_PATH = '/api/messages/send';

/** The multipart field that carries the files (spec part 2 §7). */
export const MEDIA_FIELD = 'medias';

const token = () => z.string().trim().min(1, 'validation.required').max(200, 'validation.tooLong');
/** The server's own rule: the one phone-number normaliser (a number without its country code gets Brazil's). */
const number = () => ExternalSendBody.shape.number;

/** Spec part 2 §5: the text test needs token, number and body. */
export const TextTestForm = z.object({
  token: token(),
  number: number(),
  body: z.string().trim().min(1, 'validation.required').max(4096, 'validation.tooLong'),
});
export type TextTestInput = z.input<typeof TextTestForm>;
export type TextTestValues = z.output<typeof TextTestForm>;

/** Spec part 2 §5: the media test needs token, number and a file; a caption is optional. */
export const MediaTestForm = z.object({
  token: token(),
  number: number(),
  body: z.string().trim().max(4096, 'validation.tooLong'),
  file: z.custom<File>((value) => typeof File !== 'undefined' && value instanceof File, 'validation.required'),
});
export type MediaTestInput = z.input<typeof MediaTestForm>;
export type MediaTestValues = z.output<typeof MediaTestForm>;

export interface ExternalSendRequest {
  token: string;
  number: string;
  body: string;
  /** With files the request is multipart, each file in `medias`. */
  files?: readonly File[];
}

/** What the API answers to a send. */
export interface ExternalSendResult {
  message: string;
  ticketId: number;
  messageIds: number[];
}

/**
 * The request a client of the external API makes (spec part 2 §2.14, §7): the
 * connection's token as bearer, JSON `{number, body}`, or multipart with
 * `number`, `body` (the caption, when there is one) and the files in `medias`.
 * The browser sets the multipart boundary itself, so no content type is given then.
 */
export function buildExternalSendRequest(request: ExternalSendRequest): { url: string; init: RequestInit } {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${request.token.trim()}` };
  const files = request.files ?? [];
  if (files.length === 0) {
    headers['content-type'] = 'application/json';
    return { url: EXTERNAL_SEND_PATH, init: { method: 'POST', headers, body: JSON.stringify({ number: request.number, body: request.body }) } };
  }
  const form = new FormData();
  form.append('number', request.number);
  if (request.body.trim()) form.append('body', request.body.trim());
  for (const file of files) form.append(MEDIA_FIELD, file, file.name);
  return { url: EXTERNAL_SEND_PATH, init: { method: 'POST', headers, body: form } };
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : { message: String(parsed) };
  } catch {
    return { message: text };
  }
}

/**
 * Sends through the external API as an outside client would. Deliberately not
 * the session's HTTP client: the bearer here is the connection's token, and a
 * 401 for a wrong token must not end the signed-in user's session.
 */
export async function sendExternalMessage(request: ExternalSendRequest, fetchImpl: typeof fetch = (input, init) => fetch(input, init)): Promise<ExternalSendResult> {
  const { url, init } = buildExternalSendRequest(request);
  const response = await fetchImpl(url, { ...init, credentials: 'omit' });
  const data = await readJson(response);
  if (!response.ok) {
    const code = typeof data.error === 'string' ? data.error : undefined;
    const message = typeof data.message === 'string' ? data.message : (code ?? response.statusText);
    throw new ApiError(response.status, code, message, data, requestIdOf(response));
  }
  return data as unknown as ExternalSendResult;
}
