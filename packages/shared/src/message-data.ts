import { z } from 'zod';

const text = z.string();
const optionalText = z.string().optional();

export const MessageDataContactSchema = z.object({
  name: text,
  phones: z.array(z.object({ phone: text, type: optionalText, waId: optionalText })),
  emails: z.array(z.object({ email: text, type: optionalText })).optional(),
  organization: optionalText,
  /** One line each (street, city, state, zip, country), with its type (HOME, WORK). */
  addresses: z.array(z.object({ address: text, type: optionalText })).optional(),
  /** `YYYY-MM-DD`, as WhatsApp gives it. */
  birthday: optionalText,
  urls: z.array(z.object({ url: text, type: optionalText })).optional(),
});
export type MessageDataContact = z.output<typeof MessageDataContactSchema>;

export const MessageDataOrderSchema = z.object({
  catalogId: optionalText,
  text: optionalText,
  items: z.array(z.object({ productId: text, quantity: z.number(), price: z.number(), currency: text })),
});
export type MessageDataOrder = z.output<typeof MessageDataOrderSchema>;

/**
 * What a message carries beyond its text and file (issue 19), kept as the
 * channel gave it so nothing a customer sends is lost, and presented as
 * `dataJson`. Every key is optional; `body` always holds a readable text too,
 * for clients that know nothing of these details. A zod schema (the type derives
 * from it) so the OpenAPI document describes it (platform/http/openapi.ts).
 */
export const MessageDataSchema = z.object({
  /** A media message whose file is still being fetched, or could not be (with the reason). */
  media: z.object({ status: z.enum(['pending', 'unavailable']), reason: optionalText }).optional(),
  /** An audio recorded as a voice note. */
  voice: z.boolean().optional(),
  /** An image that is a sticker. */
  sticker: z.boolean().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: optionalText, address: optionalText, url: optionalText }).optional(),
  /** Shared contact cards, whole. */
  contacts: z.array(MessageDataContactSchema).optional(),
  /** The option a customer picked in a button or list message. */
  reply: z.object({ kind: z.enum(['button', 'list']), id: text, title: text, description: optionalText }).optional(),
  /** A template's quick-reply button. */
  button: z.object({ text, payload: optionalText }).optional(),
  /** A WhatsApp Flow's submitted fields (also a WhatsApp Web native-flow reply: its name and parameters). */
  flow: z.object({ name: optionalText, fields: z.record(z.string(), z.unknown()) }).optional(),
  /**
   * A poll (WhatsApp Web): its question, each option with the votes it has now (votes arrive
   * later and update it; a voter who changes their mind moves their vote), how many options one
   * voter may pick (0: any number), and how many people voted.
   */
  poll: z.object({ name: text, options: z.array(z.object({ name: text, votes: z.number() })), selectableCount: z.number(), voters: z.number() }).optional(),
  /** An event invitation (WhatsApp Web): its name, description, place, times (ISO) and whether it was cancelled. */
  event: z
    .object({ name: text, description: optionalText, location: optionalText, joinLink: optionalText, startsAt: optionalText, endsAt: optionalText, cancelled: z.boolean().optional() })
    .optional(),
  /**
   * A live location: `location` holds its latest position, which the customer's later updates
   * move; `sequence` counts those updates, `updatedAt` (ISO) is the last one's time.
   */
  live: z.object({ sequence: z.number(), updatedAt: text, caption: optionalText, accuracyMeters: z.number().optional(), speedMps: z.number().optional() }).optional(),
  /** Stored, never presented: the poll's key that decrypts its votes (WhatsApp Web), base64. */
  pollSecret: optionalText,
  /** Stored, never presented: each voter's current choice (option names), from which `poll` counts. */
  pollVotes: z.record(z.string(), z.array(z.string())).optional(),
  order: MessageDataOrderSchema.optional(),
  /** The customer changed number or identity. */
  system: z.object({ kind: text, text, newNumber: optionalText }).optional(),
  /** A message kind the channel cannot deliver to us. */
  unsupported: z.object({ type: optionalText, code: z.number().optional(), title: optionalText }).optional(),
  /** The click-to-WhatsApp ad that brought the customer. */
  referral: z
    .object({
      sourceUrl: optionalText,
      sourceType: optionalText,
      sourceId: optionalText,
      headline: optionalText,
      body: optionalText,
      mediaType: optionalText,
      mediaUrl: optionalText,
      ctwaClid: optionalText,
    })
    .optional(),
  forwarded: z.enum(['forwarded', 'frequently']).optional(),
  /** Reactions to this message, one per person (the latest). */
  reactions: z.array(z.object({ from: text, emoji: text })).optional(),
  /** A reaction to a message we do not have. */
  reaction: z.object({ emoji: text, messageId: text }).optional(),
  /** Why the channel reported the message failed, as it said it. */
  failure: z.object({ code: z.number().optional(), title: optionalText, details: optionalText }).optional(),
  /** The channel's status for the message when it accepted it (Cloud API `message_status`). */
  channelStatus: optionalText,
  /**
   * What Meta bills for a Cloud API send, from its statuses: the conversation it opened or
   * belongs to (id, category from its origin, expiry) and the pricing (billable, model, category).
   */
  billing: z
    .object({
      conversationId: optionalText,
      conversationCategory: optionalText,
      conversationExpiresAt: optionalText,
      billable: z.boolean().optional(),
      pricingModel: optionalText,
      pricingCategory: optionalText,
    })
    .optional(),
});
export type MessageData = z.output<typeof MessageDataSchema>;

/** An order's total per currency (the items of one order share one in practice). */
export function orderTotals(order: MessageDataOrder): { currency: string; amount: number }[] {
  const totals = new Map<string, number>();
  for (const item of order.items) totals.set(item.currency, (totals.get(item.currency) ?? 0) + item.price * item.quantity);
  return [...totals].map(([currency, amount]) => ({ currency, amount: Math.round(amount * 100) / 100 }));
}

/** An order as text, for clients that show only the body (and the chat list's preview). */
export function orderSummary(order: MessageDataOrder): string {
  const items = order.items.map((item) => `${item.quantity} × ${item.productId} (${item.currency} ${item.price.toFixed(2)})`);
  const totals = orderTotals(order).map((total) => `${total.currency} ${total.amount.toFixed(2)}`);
  return [order.text, ...items, totals.length ? `Total: ${totals.join(' + ')}` : ''].filter(Boolean).join('\n');
}
