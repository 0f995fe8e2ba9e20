import type { HandoverTarget } from '../handover.js';
import { isRecord } from './peer-http.js';

/**
 * A bot's instruction to hand the ticket over, written as a message of its own:
 * `#` followed by a JSON object, e.g. `#{"queueId": 2}` (pending in queue 2) or
 * `#{"userId": 5}` (open with user 5), or `#{"handover": true}` (agents of the
 * current queue). Anything else is an ordinary message.
 */
export function parseBotCommand(text: string): HandoverTarget | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('#{') || !trimmed.endsWith('}')) return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed.slice(1));
  } catch {
    return null;
  }
  return commandFrom(value);
}

/** The same instruction inside a JSON reply (webhooks). */
export function commandFrom(value: unknown): HandoverTarget | null {
  if (!isRecord(value)) return null;
  const id = (v: unknown) => {
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const queueId = id(value.queueId);
  const userId = id(value.userId);
  if (queueId === undefined && userId === undefined && value.handover !== true) return null;
  return { ...(queueId ? { queueId } : {}), ...(userId ? { userId } : {}) };
}
