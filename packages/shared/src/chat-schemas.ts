import { z } from 'zod';
import { flag, queryFlag } from './conventions.js';
import { id, requiredText } from './validation.js';

/**
 * Internal chat and announcements (spec part 2 §2.9, §2.10, §3, §5, §7; part 1 §7).
 * One schema serves the server and the web forms.
 */

/** A chat member as the spec client sends it (`users: [{ id, name }]`) or a bare id. */
const memberId = z.preprocess((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) && 'id' in value ? (value as { id: unknown }).id : value), id());
const members = () => z.array(memberId, { error: 'validation.required' }).min(1, 'validation.required').max(500, 'validation.tooLong');

/** Chat: title required; at least one user chosen (spec part 2 §5). */
export const ChatBody = z.object({
  title: requiredText(1, 100),
  users: members(),
});
export type ChatBody = z.infer<typeof ChatBody>;

/** PUT (owner only): only the fields sent change; `users`, when sent, replaces the members (the owner always stays). */
export const ChatUpdateBody = z.object({
  title: requiredText(1, 100).optional(),
  users: members().optional(),
});
export type ChatUpdateBody = z.infer<typeof ChatUpdateBody>;

export const CHAT_MESSAGE_MAX = 4000;

/** Empty or whitespace-only messages are not sent (spec part 2 §5). */
export const ChatMessageBody = z.object({
  message: z
    .string({ error: 'validation.required' })
    .max(CHAT_MESSAGE_MAX, 'validation.tooLong')
    .refine((value) => value.trim().length > 0, 'validation.required'),
});
export type ChatMessageBody = z.infer<typeof ChatMessageBody>;

export const ChatListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type ChatListQuery = z.infer<typeof ChatListQuery>;

export const ChatMessagesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type ChatMessagesQuery = z.infer<typeof ChatMessagesQuery>;

/** `POST /chats/{id}/read` sends the user id; the session decides whose count is cleared. */
export const ChatReadBody = z.object({ userId: z.union([z.number(), z.string().max(20)]).optional() }).nullish();

/** `/chats/{id}` in the web app names a chat by its uuid; the API takes the id or the uuid. */
export const ChatRefParams = z.object({
  id: z.union([id(), z.uuid('validation.invalidValue')], { error: 'validation.invalidValue' }),
});

const idName = z.object({ id: z.number().int(), name: z.string() });

export const PresentedChatUserSchema = z.object({ userId: z.number().int(), unreads: z.number().int(), user: idName });
export type PresentedChatUser = z.output<typeof PresentedChatUserSchema>;
export const PresentedChatSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().int(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  users: z.array(PresentedChatUserSchema),
});
export type PresentedChat = z.output<typeof PresentedChatSchema>;
export const PresentedChatMessageSchema = z.object({
  id: z.number().int(),
  chatId: z.number().int(),
  message: z.string(),
  senderId: z.number().int().nullable(),
  sender: idName.nullable(),
  createdAt: z.string(),
});
export type PresentedChatMessage = z.output<typeof PresentedChatMessageSchema>;

/** `company-{id}-chat` payloads (spec part 1 §7: actions new-message and update; delete ours). */
export type ChatEventPayload =
  /** `newMessage.chat`: the chat again, where whaticket v6's header popover reads its members. */
  | { action: 'new-message'; newMessage: PresentedChatMessage & { chat: PresentedChat }; chat: PresentedChat }
  | { action: 'update'; chat: PresentedChat }
  | { action: 'delete'; id: number };

/** Announcement priority: 1 high, 2 medium, 3 low (spec part 2 §3); default 3 (§9). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
const priority = () =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value),
    z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'validation.invalidValue' }),
  );

/** Announcement: title and text required (spec part 2 §5); priority 3 and active by default (§4). */
export const AnnouncementBody = z.object({
  title: requiredText(1, 200),
  text: requiredText(1, 5000),
  priority: priority().optional().default(3),
  status: flag().optional().default(true),
});
export type AnnouncementBody = z.infer<typeof AnnouncementBody>;

export const AnnouncementUpdateBody = z.object({
  title: requiredText(1, 200).optional(),
  text: requiredText(1, 5000).optional(),
  priority: priority().optional(),
  status: flag().optional(),
});
export type AnnouncementUpdateBody = z.infer<typeof AnnouncementUpdateBody>;

export const AnnouncementListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  /** Only the active ones (what the top bar shows); users other than super users always get only those. */
  active: queryFlag(),
});
export type AnnouncementListQuery = z.infer<typeof AnnouncementListQuery>;

/** An announcement's image (spec part 2 §2.9, §5). */
export const ANNOUNCEMENT_IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg'] as const;

export const PresentedAnnouncementSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  text: z.string(),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  status: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedAnnouncement = z.output<typeof PresentedAnnouncementSchema>;

/** `company-announcement` payloads (platform-wide). */
export type AnnouncementEventPayload = { action: 'create' | 'update'; record: PresentedAnnouncement } | { action: 'delete'; id: number };
