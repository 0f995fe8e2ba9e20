import { startFakeHttp, type FakeHttp, type FakeReply } from './fake-http.js';

/**
 * The two OpenAI REST endpoints the prompts use, as the API reference
 * describes them: `POST /v1/chat/completions` (Bearer key, model, messages,
 * max_tokens, temperature → choices[0].message.content) and `POST
 * /v1/audio/transcriptions` (multipart file and model → { text }). Answers are
 * the test's. `baseUrl` ends in /v1, as OPENAI_BASE_URL does.
 */
export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens?: number;
  temperature?: number;
}

export interface FakeOpenAi extends FakeHttp {
  baseUrl: string;
  chats: ChatRequest[];
  transcriptions: number;
  failNext(reply: FakeReply, times?: number): void;
}

export async function startFakeOpenAi(options: { apiKey: string; answer(chat: ChatRequest): string; transcript?: string }): Promise<FakeOpenAi> {
  const chats: ChatRequest[] = [];
  const failures: FakeReply[] = [];
  let transcriptions = 0;
  const server = await startFakeHttp((request) => {
    const failure = failures.shift();
    if (failure) return failure;
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return { status: 401, json: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } } };
    }
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const chat = request.json as ChatRequest;
      chats.push(chat);
      return {
        json: {
          id: `chatcmpl-${chats.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: chat.model,
          choices: [{ index: 0, message: { role: 'assistant', content: options.answer(chat) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        },
      };
    }
    if (request.method === 'POST' && request.path === '/v1/audio/transcriptions') {
      const multipart = String(request.headers['content-type'] ?? '').startsWith('multipart/form-data');
      if (!multipart || !request.body.includes('name="file"') || !request.body.includes('name="model"')) {
        return { status: 400, json: { error: { message: 'file and model are required', type: 'invalid_request_error' } } };
      }
      transcriptions += 1;
      return { json: { text: options.transcript ?? '' } };
    }
    return { status: 404, json: { error: { message: 'Unknown request URL', type: 'invalid_request_error' } } };
  });
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    chats,
    get transcriptions() {
      return transcriptions;
    },
    failNext(reply, times = 1) {
      for (let i = 0; i < times; i++) failures.push(reply);
    },
  };
}
