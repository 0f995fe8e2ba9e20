/**
 * What a message carries beyond its text and file (issue 19), kept as the
 * channel gave it so nothing a customer sends is lost, and presented as
 * `dataJson`. Every key is optional; `body` always holds a readable text too,
 * for clients that know nothing of these details.
 */
export interface MessageData {
  /** A media message whose file is still being fetched, or could not be (with the reason). */
  media?: { status: 'pending' | 'unavailable'; reason?: string };
  /** An audio recorded as a voice note. */
  voice?: boolean;
  /** An image that is a sticker. */
  sticker?: boolean;
  location?: { latitude: number; longitude: number; name?: string; address?: string; url?: string };
  /** Shared contact cards, whole. */
  contacts?: MessageDataContact[];
  /** The option a customer picked in a button or list message. */
  reply?: { kind: 'button' | 'list'; id: string; title: string; description?: string };
  /** A template's quick-reply button. */
  button?: { text: string; payload?: string };
  /** A WhatsApp Flow's submitted fields (also a WhatsApp Web native-flow reply: its name and parameters). */
  flow?: { name?: string; fields: Record<string, unknown> };
  /**
   * A poll (WhatsApp Web): its question, each option with the votes it has now (votes arrive
   * later and update it; a voter who changes their mind moves their vote), how many options one
   * voter may pick (0: any number), and how many people voted.
   */
  poll?: { name: string; options: { name: string; votes: number }[]; selectableCount: number; voters: number };
  /** An event invitation (WhatsApp Web): its name, description, place, times (ISO) and whether it was cancelled. */
  event?: { name: string; description?: string; location?: string; joinLink?: string; startsAt?: string; endsAt?: string; cancelled?: boolean };
  /**
   * A live location: `location` holds its latest position, which the customer's later updates
   * move; `sequence` counts those updates, `updatedAt` (ISO) is the last one's time.
   */
  live?: { sequence: number; updatedAt: string; caption?: string; accuracyMeters?: number; speedMps?: number };
  /** Stored, never presented: the poll's key that decrypts its votes (WhatsApp Web), base64. */
  pollSecret?: string;
  /** Stored, never presented: each voter's current choice (option names), from which `poll` counts. */
  pollVotes?: Record<string, string[]>;
  order?: MessageDataOrder;
  /** The customer changed number or identity. */
  system?: { kind: string; text: string; newNumber?: string };
  /** A message kind the channel cannot deliver to us. */
  unsupported?: { type?: string; code?: number; title?: string };
  /** The click-to-WhatsApp ad that brought the customer. */
  referral?: { sourceUrl?: string; sourceType?: string; sourceId?: string; headline?: string; body?: string; mediaType?: string; mediaUrl?: string; ctwaClid?: string };
  forwarded?: 'forwarded' | 'frequently';
  /** Reactions to this message, one per person (the latest). */
  reactions?: { from: string; emoji: string }[];
  /** A reaction to a message we do not have. */
  reaction?: { emoji: string; messageId: string };
  /** Why the channel reported the message failed, as it said it. */
  failure?: { code?: number; title?: string; details?: string };
  /** The channel's status for the message when it accepted it (Cloud API `message_status`). */
  channelStatus?: string;
  /**
   * What Meta bills for a Cloud API send, from its statuses: the conversation it opened or
   * belongs to (id, category from its origin, expiry) and the pricing (billable, model, category).
   */
  billing?: { conversationId?: string; conversationCategory?: string; conversationExpiresAt?: string; billable?: boolean; pricingModel?: string; pricingCategory?: string };
}

export interface MessageDataContact {
  name: string;
  phones: { phone: string; type?: string; waId?: string }[];
  emails?: { email: string; type?: string }[];
  organization?: string;
  /** One line each (street, city, state, zip, country), with its type (HOME, WORK). */
  addresses?: { address: string; type?: string }[];
  /** `YYYY-MM-DD`, as WhatsApp gives it. */
  birthday?: string;
  urls?: { url: string; type?: string }[];
}

export interface MessageDataOrder {
  catalogId?: string;
  text?: string;
  items: { productId: string; quantity: number; price: number; currency: string }[];
}

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
