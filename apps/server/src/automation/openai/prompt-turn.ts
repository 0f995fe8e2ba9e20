import { desc, eq } from 'drizzle-orm';
import { messages, type PromptRow } from '../../platform/db/schema.js';
import { automationTexts } from '../automation-texts.js';
import { mimeTypeOfName } from '../bot-effects.js';
import type { PeerOutcome, PeerTurn } from '../peer-turn.js';
import { PeerError } from '../integrations/peer-http.js';
import { chatCompletion, transcribe, type ChatMessage } from './openai-client.js';
import { inTenant } from '../../platform/db/tenant.js';

/**
 * A ticket handled by an AI prompt (spec part 2 §2.12): the prompt's text is the
 * system message, the ticket's last `maxMessages` messages (oldest first) the
 * conversation, the answer goes back to the customer. When the model writes the
 * handover marker the ticket moves to the prompt's queue for the agents. Audio
 * is transcribed first.
 */

export const HANDOVER_MARKER = '[[TRANSFERIR]]';

const HANDOVER_INSTRUCTION =
  `\n\nSe o cliente pedir para falar com um atendente humano, ou se você não puder ajudar, ` +
  `escreva uma breve mensagem de despedida seguida exatamente de ${HANDOVER_MARKER}.`;

function systemPrompt(prompt: Pick<PromptRow, 'prompt'>): string {
  return `${prompt.prompt.trim()}${HANDOVER_INSTRUCTION}`;
}

async function history(turn: PeerTurn, prompt: PromptRow, current: { id: number; text: string }): Promise<ChatMessage[]> {
  const rows = await turn.services.db
    .select({ id: messages.id, body: messages.body, fromMe: messages.fromMe, isDeleted: messages.isDeleted })
    .from(messages)
    .where(inTenant(messages, turn.scope, eq(messages.ticketId, turn.at.ticket.id)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(prompt.maxMessages);
  return rows
    .reverse()
    .flatMap((row): ChatMessage[] => {
      const content = row.id === current.id ? current.text : row.body;
      if (row.isDeleted || !content.trim()) return [];
      return [{ role: row.fromMe ? 'assistant' : 'user', content }];
    });
}

export async function promptTurn(turn: PeerTurn, prompt: PromptRow): Promise<PeerOutcome> {
  const { services, runtime, message } = turn;
  const apiKey = services.secrets.open(prompt.apiKeySealed);
  const baseUrl = services.config.OPENAI_BASE_URL;
  let text = message.body;
  if (message.mediaType === 'audio' && message.mediaPath) {
    try {
      text = await transcribe({
        baseUrl,
        apiKey,
        data: await services.media.read(message.mediaPath),
        name: message.mediaName ?? 'audio.mp3',
        mimeType: mimeTypeOfName(message.mediaName ?? 'audio.mp3'),
        timeoutMs: runtime.httpTimeoutMs,
      });
    } catch (error) {
      if (!(error instanceof PeerError)) throw error;
      runtime.logger.warn({ err: error, ticketId: turn.at.ticket.id }, 'audio not transcribed');
      return { replies: [{ body: automationTexts(turn.at.settings).audioNotUnderstood, source: 'bot' }] };
    }
  }
  const conversation = await history(turn, prompt, { id: message.messageId, text });
  const answer = await chatCompletion({
    baseUrl,
    apiKey,
    model: prompt.model,
    messages: [{ role: 'system', content: systemPrompt(prompt) }, ...conversation],
    maxTokens: prompt.maxTokens,
    temperature: prompt.temperature,
    timeoutMs: runtime.httpTimeoutMs,
  });
  if (answer.includes(HANDOVER_MARKER)) {
    const farewell = answer.replaceAll(HANDOVER_MARKER, '').trim();
    return { replies: [{ body: farewell || automationTexts(turn.at.settings).aiHandover, source: 'bot' }], handover: { queueId: prompt.queueId } };
  }
  if (!answer.trim()) throw new PeerError('OpenAI answered an empty message');
  return { replies: [{ body: answer.trim(), source: 'bot' }] };
}
