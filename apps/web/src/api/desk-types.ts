import type { ConnectionProblem, MessageData } from '@atende/shared';
import type { TicketStatus } from '@atende/shared';

/** Shapes the service-desk routes answer (server presenters; spec part 1 §3). */

export interface TicketContact {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
  isGroup: boolean;
  email: string;
}

export interface Ticket {
  id: number;
  uuid: string;
  status: TicketStatus;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; status: string; provider: string } | null;
  contactId: number;
  contact: TicketContact;
  isGroup: boolean;
  chatbot: boolean;
  unreadMessages: number;
  lastMessage: string;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  tags: Tag[];
  companyId: number;
  code: string;
  createdAt: string;
  updatedAt: string;
}

export type MessageMediaType = 'image' | 'audio' | 'video' | 'application' | 'locationMessage' | 'vcard' | 'contactMessage' | 'call_log' | 'chat' | null;

export interface Message {
  id: number;
  ticketId: number;
  contactId: number;
  userId: number | null;
  body: string;
  fromMe: boolean;
  source: 'customer' | 'agent' | 'phone' | 'bot' | 'system';
  ack: number;
  read: boolean;
  mediaType: MessageMediaType | string | null;
  mediaUrl: string | null;
  mediaName: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  senderName: string | null;
  /** Outgoing messages: 'pending' until the channel answers, then 'sent' or 'failed' (sendError is the error code). */
  sendStatus?: 'pending' | 'sent' | 'failed' | null;
  sendError?: string | null;
  /** What the channel gave beyond text and file: reactions, order, referral, media state, ... (issue 19). */
  dataJson?: MessageData | null;
  contact: { id: number; name: string };
  quotedMsgId: number | null;
  quotedMsg: { id: number; body: string; fromMe: boolean; mediaType: string | null; isDeleted: boolean; contact: { name: string } } | null;
  createdAt: string;
  updatedAt: string;
}

export interface MessagePage {
  messages: Message[];
  ticket: Ticket;
  hasMore: boolean;
}

export interface TicketPage {
  tickets: Ticket[];
  hasMore: boolean;
}

export interface ExtraInfo {
  id?: number;
  name: string;
  value: string;
}

export interface Contact {
  id: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  whatsappId: number | null;
  extraInfo: ExtraInfo[];
  createdAt: string;
  updatedAt: string;
}

export interface ContactPage {
  contacts: Contact[];
  hasMore: boolean;
  count: number;
}

/** `GET /contacts/list`: every contact of the company, for pickers. */
export interface ContactSummary {
  id: number;
  name: string;
  number: string;
  email: string;
}

/** `POST /contacts/upload` and `POST /contacts/import`. `message` is an error code (ERR_DUPLICATED_CONTACT) or an English sentence. */
export interface ContactImportResult {
  newContacts: { contactId: number; contactName: string }[];
  errorBag: {
    contactName: string;
    /** `fields`: per invalid column, the validation key (`validation.tooShort`, ...) to translate. */
    error: { message: string; code: 'ERR_DUPLICATED_CONTACT' | 'ERR_VALIDATION' | 'ERR_WAPP_NOT_INITIALIZED'; fields?: Record<string, string> };
  }[];
}

/** `company-{id}-contact`. */
export type ContactEvent = { action: 'update'; contact: Contact } | { action: 'delete'; contactId: number };

/** Tickets carry `{id, name, color}`; `GET /tags/list` adds `kanban`; the tags page (`GET /tags`, `GET /tags/:id`) all fields. */
export interface Tag {
  id: number;
  name: string;
  color: string;
  kanban?: number;
  userId?: number | null;
  ticketsCount?: number;
  createdAt?: string;
  updatedAt?: string;
}

export interface TagPage {
  tags: Tag[];
  hasMore: boolean;
  count: number;
}

/** `company-{id}-tag`. */
export type TagEvent = { action: 'create' | 'update'; tag: Tag } | { action: 'delete'; tagId: number };

export interface TicketNote {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  user: { id: number; name: string } | null;
  createdAt: string;
}

export interface QuickMessage {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  userId: number | null;
  isMedia: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
}

export interface QuickMessagePage {
  records: QuickMessage[];
  hasMore: boolean;
  count: number;
}

/** `company-{id}-quickMessage` (a private one reaches only its owner and the admins). */
export type QuickMessageEvent = { action: 'create' | 'update'; quickMessage: QuickMessage } | { action: 'delete'; quickMessageId: number };

export interface Connection {
  id: number;
  name: string;
  status: string;
  isDefault: boolean;
  provider: string;
  companyId: number;
  /** Why the connection needs its admin (a revoked token, a channel error), or null. */
  problem?: ConnectionProblem | null;
  createdAt: string;
  updatedAt: string;
}

export interface QueueSummary {
  id: number;
  name: string;
  color: string;
}

export interface UserSummary {
  id: number;
  name: string;
  email: string;
  profile: string;
  queues?: QueueSummary[];
}
