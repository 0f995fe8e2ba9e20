import { randomUUID } from 'node:crypto';
import { startFakeHttp, type FakeHttp, type FakeReply } from './fake-http.js';

/**
 * A Typebot viewer speaking its public chat API (docs.typebot.io, "Start chat"
 * and "Continue chat"): `POST /api/v1/typebots/{publicId}/startChat` answers a
 * sessionId, the first bubbles and the input awaited; `POST
 * /api/v1/sessions/{sessionId}/continueChat` takes `{ message }` and answers the
 * next bubbles. Bubbles are markdown text; choice inputs list their items. A flow
 * without an input left has ended. The flow itself is the test's.
 */
interface TypebotStep {
  messages: string[];
  /** Buttons of a choice input. */
  choices?: string[];
  /** A free-text input. */
  askText?: boolean;
}

export interface TypebotFlow {
  start(variables: Record<string, unknown>): TypebotStep;
  /** Answers the customer's reply; null = not a valid answer (Typebot asks again with no bubbles). */
  answer(session: { step: number; variables: Record<string, unknown> }, reply: string): TypebotStep | null;
}

export interface FakeTypebot extends FakeHttp {
  publicId: string;
  /** The next calls fail this way (status, or a delay longer than the caller waits). */
  failNext(reply: FakeReply, times?: number): void;
  sessions: Map<string, { step: number; variables: Record<string, unknown>; input: TypebotStep | null }>;
}

function present(step: TypebotStep) {
  const input = step.choices
    ? { id: randomUUID(), type: 'choice input', items: step.choices.map((content) => ({ id: randomUUID(), content })), options: {} }
    : step.askText
      ? { id: randomUUID(), type: 'text input', options: { labels: { placeholder: 'Digite...' } } }
      : undefined;
  return {
    messages: step.messages.map((markdown) => ({ id: randomUUID(), type: 'text', content: { type: 'markdown', markdown } })),
    ...(input ? { input } : {}),
  };
}

export async function startFakeTypebot(flow: TypebotFlow, publicId = 'my-typebot-x1y2z3'): Promise<FakeTypebot> {
  const sessions: FakeTypebot['sessions'] = new Map();
  const failures: FakeReply[] = [];
  const server = await startFakeHttp((request) => {
    const failure = failures.shift();
    if (failure) return failure;
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(request.path);
    if (request.method === 'POST' && start) {
      if (decodeURIComponent(start[1] ?? '') !== publicId) return { status: 404, json: { message: 'Typebot not found', code: 'NOT_FOUND' } };
      const body = (request.json ?? {}) as { prefilledVariables?: Record<string, unknown> };
      const variables = body.prefilledVariables ?? {};
      const step = flow.start(variables);
      const sessionId = randomUUID();
      sessions.set(sessionId, { step: 0, variables, input: step.choices || step.askText ? step : null });
      return { json: { sessionId, resultId: randomUUID(), typebot: { id: publicId, theme: {}, settings: {} }, ...present(step) } };
    }
    const next = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(request.path);
    if (request.method === 'POST' && next) {
      const session = sessions.get(decodeURIComponent(next[1] ?? ''));
      if (!session || !session.input) return { status: 404, json: { message: 'Session not found.', code: 'NOT_FOUND' } };
      const message = (request.json as { message?: { text?: string } | string } | null)?.message;
      const text = typeof message === 'string' ? message : (message?.text ?? '');
      const step = flow.answer({ step: session.step, variables: session.variables }, text);
      // An answer the input does not accept: the same input again, no bubbles.
      if (!step) return { json: present({ ...session.input, messages: [] }) };
      session.step += 1;
      session.input = step.choices || step.askText ? step : null;
      return { json: present(step) };
    }
    return { status: 404, json: { message: 'Not found', code: 'NOT_FOUND' } };
  });
  return {
    ...server,
    publicId,
    sessions,
    failNext(reply, times = 1) {
      for (let i = 0; i < times; i++) failures.push(reply);
    },
  };
}
