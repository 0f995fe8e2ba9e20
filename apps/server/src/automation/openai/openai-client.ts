import { TRUSTED_OUTBOUND } from '../../platform/http/outbound.js';
import { callPeer, isRecord, joinUrl, PeerError, postJson } from '../integrations/peer-http.js';

/**
 * The two OpenAI REST calls the prompts use, against `OPENAI_BASE_URL`:
 * `POST /chat/completions` and `POST /audio/transcriptions` (multipart). The
 * base URL is the operator's, never a tenant's: no address is refused.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export async function chatCompletion(options: {
  baseUrl: string;
  apiKey: string;
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  timeoutMs: number;
}): Promise<string> {
  const response = await postJson(
    joinUrl(options.baseUrl, 'chat/completions'),
    { model: options.model, messages: options.messages, max_tokens: options.maxTokens, temperature: options.temperature },
    { headers: { authorization: `Bearer ${options.apiKey}` }, timeoutMs: options.timeoutMs, outbound: TRUSTED_OUTBOUND },
  );
  const json = response.json;
  const choice = isRecord(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
  const content = isRecord(choice) && isRecord(choice.message) ? choice.message.content : undefined;
  if (typeof content !== 'string') throw new PeerError('OpenAI answered without a message');
  return content;
}

/** Transcription model; the chat models of the prompts do not take audio themselves. */
const TRANSCRIPTION_MODEL = 'whisper-1';

export async function transcribe(options: { baseUrl: string; apiKey: string; data: Buffer; name: string; mimeType: string; timeoutMs: number }): Promise<string> {
  const { data } = options;
  const form = new FormData();
  form.append('model', TRANSCRIPTION_MODEL);
  form.append('file', new Blob([data], { type: options.mimeType }), options.name);
  const response = await callPeer(joinUrl(options.baseUrl, 'audio/transcriptions'), {
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
    body: form,
    timeoutMs: options.timeoutMs,
    outbound: TRUSTED_OUTBOUND,
  });
  const json = response.json;
  if (!isRecord(json) || typeof json.text !== 'string') throw new PeerError('OpenAI answered without a transcription');
  return json.text;
}
