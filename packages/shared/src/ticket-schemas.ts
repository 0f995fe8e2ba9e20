import { z } from 'zod';
import { TICKET_STATUSES } from './realtime.js';
import { flag, noneAsAbsent, noneId, queryFlag } from './conventions.js';
import { calendarDate, id } from './validation.js';

/** Id lists arrive as a JSON array string ('[1,2]'), a comma list or repeated parameters. */
const idList = () =>
  z.preprocess((value) => {
    if (value === undefined || value === '' || value === null) return undefined;
    if (Array.isArray(value)) return value;
    if (typeof value === 'string') {
      const text = value.trim();
      if (text.startsWith('[')) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return value;
        }
      }
      return text.split(',').map((part) => part.trim()).filter(Boolean);
    }
    return value;
  }, z.array(id()).max(500).optional());

const day = () =>
  calendarDate()
    .optional()
    .or(z.literal('').transform(() => undefined));

export const TicketListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  status: z
    .enum(TICKET_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  showAll: queryFlag(),
  withUnreadMessages: queryFlag(),
  queueIds: idList(),
  tags: idList(),
  users: idList(),
  date: day(),
  updatedAt: day(),
  /** `sla`: closest to breach first (the next target's due instant; tickets without one last). */
  sortBy: z
    .enum(['updatedAt', 'sla'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export type TicketListQuery = z.infer<typeof TicketListQuery>;

/** Cards a lane of the kanban board loads at a time (`GET /ticket/kanban` with `lane`). */
export const KANBAN_LANE_PAGE_SIZE = 40;
/** Without `lane` (a spec client building every lane itself) a page holds this many cards. */
export const KANBAN_BOARD_PAGE_SIZE = 500;

/**
 * `GET /ticket/kanban` (spec part 2 §7: queueIds as JSON, showAll). `lane` and
 * `pageNumber` are ours: one lane (`none`, the tickets without a kanban tag, or a
 * kanban tag's id) a page at a time, so a board of thousands of tickets loads
 * only what is shown.
 */
export const KanbanQuery = z.object({
  showAll: queryFlag(),
  queueIds: idList(),
  lane: z.union([z.literal('none'), id()]).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type KanbanQuery = z.infer<typeof KanbanQuery>;

export const TicketTagParams = z.object({ ticketId: id(), tagId: id() });
export const TicketTagsParams = z.object({ ticketId: id() });

export const CreateTicketBody = z.object({
  contactId: id(),
  queueId: noneId().optional(),
  whatsappId: noneId().optional(),
  /** Accepted for compatibility: a new ticket always belongs to its creator. */
  userId: noneId().optional(),
  status: z.enum(['open', 'pending']).optional(),
});
export type CreateTicketBody = z.infer<typeof CreateTicketBody>;

/**
 * Ours (not in the spec): the ticket as the client saw it when the agent acted. Sent,
 * the change applies only while the ticket is still so; otherwise 409
 * `ERR_TICKET_CHANGED` (or the more precise ALREADY_ACCEPTED/ALREADY_CLOSED) naming who
 * has it now. Our web sends it with every action; without it (a spec client) only the
 * state the action implies is checked: accept and reopen need the ticket not to be
 * another agent's, close needs it not closed.
 */
export const ExpectedTicketState = z.object({
  status: z.enum(TICKET_STATUSES),
  userId: noneId(),
  queueId: noneId(),
});
export type ExpectedTicketState = z.infer<typeof ExpectedTicketState>;

export const UpdateTicketBody = z
  .object({
    status: z.enum(TICKET_STATUSES).optional(),
    userId: noneId().optional(),
    queueId: noneId().optional(),
    whatsappId: noneId().optional(),
    useIntegration: flag().optional(),
    promptId: noneId().optional(),
    integrationId: noneId().optional(),
    expected: noneAsAbsent(ExpectedTicketState.optional()),
    /**
     * whaticket v6's "users on the ticket" dialog. A ticket has one agent here: at most one
     * entry, which assigns the ticket (and moves it to the entry's queue when it names one).
     */
    ticketUsers: z.array(z.object({ userId: id(), queueId: noneId().optional() })).max(1, 'validation.oneAgentPerTicket').optional(),
  })
  .refine((body) => !body.ticketUsers?.[0] || body.userId === undefined || body.userId === body.ticketUsers[0].userId, { message: 'validation.oneAgentPerTicket', path: ['ticketUsers'] })
  .transform(({ ticketUsers, ...body }) => {
    const picked = ticketUsers?.[0];
    if (!picked) return body;
    return { ...body, userId: picked.userId, queueId: body.queueId ?? picked.queueId ?? undefined };
  });
export type UpdateTicketBody = z.infer<typeof UpdateTicketBody>;

export const MESSAGE_MAX_LENGTH = 4096;

export const SendMessageBody = z.object({
  body: z.string().max(MESSAGE_MAX_LENGTH, 'validation.tooLong').default(''),
  /** The client sends the whole quoted message; only its id is read. */
  quotedMsg: z.object({ id: id() }).nullable().optional(),
  read: flag().optional(),
  fromMe: flag().optional(),
  mediaUrl: z.string().max(2000).optional(),
  /** Prefix the agent's name in bold (the composer's sign switch). */
  sign: flag().optional(),
  /** One of the company's saved stickers (`GET /stickers`), sent as a sticker after the text, if any. */
  stickerId: noneId().optional(),
});
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/** WhatsApp lets a sent text be edited for 15 minutes. */
export const MESSAGE_EDIT_WINDOW_MINUTES = 15;

/** `POST /messages/edit/:messageId` and `PUT /messages/:id`: the new text (v6 also sends read, fromMe, mediaUrl, quotedMsg: dropped). */
export const EditMessageBody = z.object({
  body: z.string().trim().min(1, 'validation.required').max(MESSAGE_MAX_LENGTH, 'validation.tooLong'),
});
export type EditMessageBody = z.infer<typeof EditMessageBody>;

/** An emoji (flags and joined sequences included), or '' to take one's reaction back. */
const EMOJI = /^(?:\p{Extended_Pictographic}|\p{Emoji_Presentation}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3|[#*0-9])+$/u;

/** `POST /messages/:messageId/reactions`: v6 names the emoji `type`. */
export const MessageReactionBody = z.object({
  type: z
    .string()
    .trim()
    .max(32, 'validation.tooLong')
    .refine((value) => value === '' || (EMOJI.test(value) && /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u.test(value)), 'validation.invalidValue'),
});
export type MessageReactionBody = z.infer<typeof MessageReactionBody>;

/** Most messages and contacts one forward takes (WhatsApp forwards to at most 5 chats at once). */
export const FORWARD_MAX_MESSAGES = 20;
export const FORWARD_MAX_CONTACTS = 5;

/**
 * `POST /message/forward`: v6 sends one message to one contact (`messageId`, `contactId`, `signMessage`);
 * our web app sends several of each (`messageIds`, `contactIds`). At least one of each is required.
 */
export const ForwardMessageBody = z
  .object({
    messageId: noneId().optional(),
    contactId: noneId().optional(),
    messageIds: z.array(id()).max(FORWARD_MAX_MESSAGES, 'validation.tooLong').optional(),
    contactIds: z.array(id()).max(FORWARD_MAX_CONTACTS, 'validation.tooLong').optional(),
    signMessage: flag().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.messageId == null && !body.messageIds?.length) ctx.addIssue({ code: 'custom', path: ['messageIds'], message: 'validation.required' });
    if (body.contactId == null && !body.contactIds?.length) ctx.addIssue({ code: 'custom', path: ['contactIds'], message: 'validation.required' });
  });
export type ForwardMessageBody = z.infer<typeof ForwardMessageBody>;

export const SandboxInboundBody = z.object({
  from: z.string().trim().regex(/^\+?\d{8,15}$/, 'validation.invalidNumber'),
  name: z.string().trim().max(100, 'validation.tooLong').optional(),
  body: z.string().max(MESSAGE_MAX_LENGTH, 'validation.tooLong').default(''),
  id: z.string().trim().min(1).max(200).optional(),
  quotedId: z.string().trim().max(200).optional(),
  /** What kind of message the simulated phone sends: plain text (or a file), a missed call, a location, a contact card, a catalog order. */
  type: z.enum(['text', 'call', 'location', 'vcard', 'order']).default('text'),
  /** The cart of an `order` (a catalog order, as the Cloud API delivers one). */
  order: z
    .object({
      text: z.string().max(1000, 'validation.tooLong').optional(),
      items: z
        .array(
          z.object({
            productId: z.string().trim().min(1, 'validation.required').max(100, 'validation.tooLong'),
            quantity: z.number().int().min(1).max(10_000),
            price: z.number().min(0).max(1e9),
            currency: z.string().trim().regex(/^[A-Z]{3}$/, 'validation.invalid'),
          }),
        )
        .min(1, 'validation.required')
        .max(100, 'validation.tooLong'),
    })
    .optional(),
});
export type SandboxInboundBody = z.infer<typeof SandboxInboundBody>;

export const SandboxMessageRef = z.object({ id: z.string().trim().min(1).max(200) });
/** The simulated customer reacts to a message the product sent (empty emoji: the reaction is removed). */
export const SandboxReactBody = SandboxMessageRef.extend({
  from: z.string().trim().regex(/^\+?\d{8,15}$/, 'validation.invalidNumber'),
  emoji: z.string().max(32, 'validation.tooLong').default(''),
});
export const SandboxEditBody = SandboxMessageRef.extend({ body: z.string().trim().min(1, 'validation.required').max(MESSAGE_MAX_LENGTH, 'validation.tooLong') });
export const SandboxReadBody = z.object({ number: z.string().trim().regex(/^\+?\d{8,15}$/, 'validation.invalidNumber') });

/** `POST /tickets/closeAll` (whaticket v6): the tab's status; `selectedQueueIds` narrows it to those queues (none: every queue). */
export const CloseAllTicketsBody = z.object({
  status: z.enum(['open', 'pending'], { error: 'validation.invalidValue' }),
  selectedQueueIds: z.array(id()).max(500).optional(),
});
export type CloseAllTicketsBody = z.infer<typeof CloseAllTicketsBody>;
