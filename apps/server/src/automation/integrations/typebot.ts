import type { QueueIntegrationRow } from '../../platform/db/schema.js';
import { outboundPolicy } from '../../platform/http/outbound.js';
import { type BotReply } from '../bot-effects.js';
import type { PeerOutcome, PeerTurn } from '../peer-turn.js';
import { parseBotCommand } from './bot-command.js';
import { isRecord, joinUrl, PeerError, postJson } from './peer-http.js';
import { readBotState } from '../../modules/tickets/bot-state.js';

/**
 * Typebot through its public chat API: `POST {url}/api/v1/typebots/{publicId}/startChat`
 * opens a session, `POST {url}/api/v1/sessions/{sessionId}/continueChat` answers
 * its input. The session id lives in the ticket's bot state; after
 * `typebotExpires` minutes without a message a new session starts. A text
 * bubble holding a bot command (`#{"queueId":2}`) transfers instead of being sent.
 */

interface TypebotAnswer {
  sessionId?: string;
  messages: unknown[];
  input: unknown;
}

function readAnswer(json: unknown): TypebotAnswer {
  if (!isRecord(json)) throw new PeerError('Typebot answered without a JSON object');
  return {
    sessionId: typeof json.sessionId === 'string' ? json.sessionId : undefined,
    messages: Array.isArray(json.messages) ? json.messages : [],
    input: json.input ?? null,
  };
}

/** Rich text (Slate nodes) as WhatsApp text: leaves joined, paragraphs on their own lines, bold and italic marked. */
function richTextToWhatsApp(nodes: unknown): string {
  const inline = (node: unknown): string => {
    if (!isRecord(node)) return '';
    if (typeof node.text === 'string') {
      let text = node.text;
      if (text.trim() && node.bold) text = `*${text}*`;
      if (text.trim() && node.italic) text = `_${text}_`;
      return text;
    }
    const children = Array.isArray(node.children) ? node.children.map(inline).join('') : '';
    return node.type === 'a' && typeof node.url === 'string' && !children.includes(node.url) ? `${children} (${node.url})` : children;
  };
  return Array.isArray(nodes) ? nodes.map(inline).join('\n') : '';
}

/** Markdown as WhatsApp text: **bold** becomes *bold*. */
function markdownToWhatsApp(markdown: string): string {
  return markdown.replace(/\*\*(.+?)\*\*/g, '*$1*');
}

function messageText(message: Record<string, unknown>): string {
  const content = isRecord(message.content) ? message.content : {};
  if (message.type === 'text') {
    if (typeof content.markdown === 'string') return markdownToWhatsApp(content.markdown);
    if (content.richText !== undefined) return richTextToWhatsApp(content.richText);
    if (typeof content.plainText === 'string') return content.plainText;
    return '';
  }
  // Images, videos, audio and embeds are sent as their link.
  return typeof content.url === 'string' ? content.url : '';
}

function choicesOf(input: unknown): string[] {
  if (!isRecord(input) || input.type !== 'choice input' || !Array.isArray(input.items)) return [];
  return input.items.flatMap((item) => (isRecord(item) && typeof item.content === 'string' ? [item.content] : []));
}

export async function typebotTurn(turn: PeerTurn, integration: QueueIntegrationRow): Promise<PeerOutcome> {
  const { services, runtime, at, message } = turn;
  const now = services.clock.now();
  const text = message.body.trim();
  const lower = text.toLowerCase();
  const finish = integration.typebotKeywordFinish.trim().toLowerCase();
  if (finish && lower === finish) return { replies: [], handover: {}, state: { typebot: undefined } };

  const replies: BotReply[] = [];
  const saved = readBotState(at.ticket.botState).typebot;
  const restart = integration.typebotKeywordRestart.trim().toLowerCase();
  const restarting = restart !== '' && lower === restart;
  if (restarting && integration.typebotRestartMessage.trim()) replies.push({ body: integration.typebotRestartMessage, source: 'bot' });
  const expired =
    !saved ||
    (integration.typebotExpires > 0 && now.getTime() - new Date(saved.lastAt).getTime() > integration.typebotExpires * 60_000);

  const base = integration.urlN8N;
  const timeoutMs = runtime.httpTimeoutMs;
  const outbound = outboundPolicy(turn.services.config);
  let answer: TypebotAnswer;
  let sessionId: string;
  const continuing = !restarting && !expired && saved !== undefined;
  if (continuing) {
    // A number picks the matching button of the last choice input.
    const choice = /^\d{1,2}$/.test(text) ? saved.choices?.[Number(text) - 1] : undefined;
    const response = await postJson(
      joinUrl(base, `api/v1/sessions/${encodeURIComponent(saved.sessionId)}/continueChat`),
      { message: { type: 'text', text: choice ?? text }, textBubbleContentFormat: 'markdown' },
      { timeoutMs, outbound },
    );
    answer = readAnswer(response.json);
    sessionId = saved.sessionId;
  } else {
    const response = await postJson(
      joinUrl(base, `api/v1/typebots/${encodeURIComponent(integration.typebotSlug)}/startChat`),
      {
        textBubbleContentFormat: 'markdown',
        prefilledVariables: { number: at.contact.number, pushName: at.contact.name, protocol: String(at.ticket.id) },
      },
      { timeoutMs, outbound },
    );
    answer = readAnswer(response.json);
    if (!answer.sessionId) throw new PeerError('Typebot started no session');
    sessionId = answer.sessionId;
  }

  let handover: PeerOutcome['handover'];
  for (const raw of answer.messages) {
    if (!isRecord(raw)) continue;
    const body = messageText(raw).trim();
    if (!body) continue;
    const command = parseBotCommand(body);
    if (command) {
      handover = command;
      break;
    }
    replies.push({ body, source: 'bot', delayMs: replies.length > 0 ? integration.typebotDelayMessage : 0 });
  }
  // The bot did not take the answer: it asks the same input again without a word.
  if (continuing && !handover && answer.messages.length === 0 && answer.input && integration.typebotUnknownMessage.trim()) {
    replies.push({ body: integration.typebotUnknownMessage, source: 'bot' });
  }
  const choices = choicesOf(answer.input);
  if (!handover && choices.length > 0) {
    const list = choices.map((choice, index) => `*${index + 1}* - ${choice}`).join('\n');
    replies.push({ body: list, source: 'bot', delayMs: replies.length > 0 ? integration.typebotDelayMessage : 0 });
  }
  if (handover) return { replies, handover, state: { typebot: undefined } };
  // No input left: the flow ended, the agents take over.
  if (!answer.input) return { replies, handover: {}, state: { typebot: undefined } };
  return { replies, state: { typebot: { sessionId, lastAt: now.toISOString(), choices: choices.length > 0 ? choices : saved?.choices } } };
}
