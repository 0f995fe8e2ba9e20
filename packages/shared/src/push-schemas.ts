import { z } from 'zod';
import { flag } from './conventions.js';
import { LANGUAGES } from './constants.js';

/**
 * Web Push (issue 35 item 5): a browser's push subscription and what a user wants
 * to be told of with the tab closed.
 */

/** The three kinds of push notification, each a setting of the user's. */
export const PUSH_KINDS = ['newTickets', 'ticketMessages', 'chatMessages'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

const base64url = (min: number, max: number) =>
  z
    .string({ error: 'validation.required' })
    .min(min, 'validation.tooShort')
    .max(max, 'validation.tooLong')
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'validation.invalidValue');

/** What `PushSubscription.toJSON()` gives (the fields a push needs), plus the page's language. */
export const PushSubscriptionBody = z.object({
  endpoint: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .max(2048, 'validation.tooLong')
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'validation.invalidValue'),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes: 87 characters of base64url). */
    p256dh: base64url(86, 90),
    /** The 16-byte authentication secret (22 characters). */
    auth: base64url(21, 26),
  }),
  language: z.enum(LANGUAGES).optional().catch(undefined),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const PushUnsubscribeBody = z.object({
  endpoint: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(2048, 'validation.tooLong'),
});

/** `PUT /push/settings`: the kinds to change; a kind left out keeps its value. */
export const PushSettingsBody = z.object({
  newTickets: flag().optional(),
  ticketMessages: flag().optional(),
  chatMessages: flag().optional(),
});
export type PushSettingsBody = z.infer<typeof PushSettingsBody>;

/** `GET /push/settings` (and what changing them answers): the caller's choices and how many of its browsers are subscribed. */
export const PushSettingsSchema = z.object({
  newTickets: z.boolean(),
  ticketMessages: z.boolean(),
  chatMessages: z.boolean(),
  devices: z.number().int(),
});
export type PushSettings = z.infer<typeof PushSettingsSchema>;

/** `GET /push/vapid-public-key`: the key browsers subscribe with (PushManager.subscribe's applicationServerKey). */
export const VapidPublicKeySchema = z.object({ publicKey: z.string() });

/** What the service worker receives, decrypted: what it shows and where a click goes. */
export interface PushPayload {
  kind: PushKind;
  title: string;
  body: string;
  /** A path of the app (`/tickets/<uuid>`, `/chats/<uuid>`). */
  url: string;
  /** Notifications with the same tag replace each other (one per ticket or chat). */
  tag: string;
}
