import { LANGUAGES, type Language, type PushKind } from '@atende/shared';

/**
 * What a push notification says, in its reader's language (the user's own, else the
 * page's when it subscribed; Portuguese otherwise). No more of the customer than the
 * in-app desktop notification shows: the contact's name and the start of the message.
 */
const TEXTS = {
  pt: {
    newTicket: (name: string) => `Aguardando: ${name}`,
    newTicketIn: (name: string, queue: string) => `Aguardando em ${queue}: ${name}`,
    ticketMessage: (name: string) => `Nova mensagem de ${name}`,
    chatMessage: (sender: string, chat: string) => `${sender} em ${chat}`,
    media: 'Enviou um arquivo',
    waiting: 'Um atendimento aguarda na fila',
  },
  en: {
    newTicket: (name: string) => `Waiting: ${name}`,
    newTicketIn: (name: string, queue: string) => `Waiting in ${queue}: ${name}`,
    ticketMessage: (name: string) => `New message from ${name}`,
    chatMessage: (sender: string, chat: string) => `${sender} in ${chat}`,
    media: 'Sent a file',
    waiting: 'A ticket is waiting in the queue',
  },
  es: {
    newTicket: (name: string) => `En espera: ${name}`,
    newTicketIn: (name: string, queue: string) => `En espera en ${queue}: ${name}`,
    ticketMessage: (name: string) => `Nuevo mensaje de ${name}`,
    chatMessage: (sender: string, chat: string) => `${sender} en ${chat}`,
    media: 'Envió un archivo',
    waiting: 'Un ticket espera en la cola',
  },
} as const satisfies Record<Language, unknown>;

export type PushTexts = (typeof TEXTS)[Language];

export function pushTexts(language: string | null): PushTexts {
  const known = LANGUAGES.find((candidate) => candidate === language);
  return TEXTS[known ?? 'pt'];
}

/** A notification's body: the start of the text, on one line. */
export function shortBody(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What a notification of each kind says (title and body). */
export interface PushContent {
  kind: PushKind;
  url: string;
  tag: string;
  /** The title and body in a language. */
  text(texts: PushTexts): { title: string; body: string };
}
