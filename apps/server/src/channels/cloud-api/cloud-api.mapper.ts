import { orderSummary, type ErrorCode, type MessageData, type MessageDataContact } from '@atende/shared';
import { z } from 'zod';
import type { InboundMessage } from '../../inbound/inbound-message.js';

/*
 * What Meta's webhook sends (messages, statuses, errors) and how a message reads
 * in the product: pure mapping, no database. `cloud-api.inbound.ts` stores it.
 */

const Loose = z.record(z.string(), z.unknown());
const text = z.string().max(100_000);

/** One message of a `messages` webhook (Meta's webhook reference); unknown fields pass through. */
export const CloudMessage = z
  .object({
    from: z.string(),
    /** Set on messages of a group (Meta's groups): the chat is the group, `from` the member who wrote. */
    group_id: z.string().max(200).optional(),
    id: z.string(),
    timestamp: z.string().optional(),
    type: z.string(),
    context: z.object({ id: z.string().optional(), forwarded: z.boolean().optional(), frequently_forwarded: z.boolean().optional() }).passthrough().optional(),
    text: z.object({ body: text }).passthrough().optional(),
    image: Loose.optional(),
    video: Loose.optional(),
    audio: Loose.optional(),
    document: Loose.optional(),
    sticker: Loose.optional(),
    location: z
      .object({ latitude: z.number(), longitude: z.number(), name: text.optional(), address: text.optional(), url: text.optional() })
      .passthrough()
      .optional(),
    contacts: z
      .array(
        z
          .object({
            name: z.object({ formatted_name: text.optional(), first_name: text.optional(), last_name: text.optional() }).passthrough().optional(),
            phones: z.array(z.object({ phone: text.optional(), wa_id: text.optional(), type: text.optional() }).passthrough()).optional(),
            emails: z.array(z.object({ email: text.optional(), type: text.optional() }).passthrough()).optional(),
            org: z.object({ company: text.optional() }).passthrough().optional(),
            addresses: z
              .array(
                z
                  .object({ street: text.optional(), city: text.optional(), state: text.optional(), zip: text.optional(), country: text.optional(), type: text.optional() })
                  .passthrough(),
              )
              .max(20)
              .optional(),
            birthday: text.optional(),
            urls: z.array(z.object({ url: text.optional(), type: text.optional() }).passthrough()).max(20).optional(),
          })
          .passthrough(),
      )
      .max(100)
      .optional(),
    interactive: z
      .object({
        type: z.string().optional(),
        button_reply: z.object({ id: text.optional(), title: text }).passthrough().optional(),
        list_reply: z.object({ id: text.optional(), title: text, description: text.optional() }).passthrough().optional(),
        nfm_reply: z.object({ name: text.optional(), body: text.optional(), response_json: text.optional() }).passthrough().optional(),
      })
      .passthrough()
      .optional(),
    button: z.object({ text, payload: text.optional() }).passthrough().optional(),
    reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).passthrough().optional(),
    order: z
      .object({
        catalog_id: text.optional(),
        text: text.optional(),
        product_items: z
          .array(z.object({ product_retailer_id: text, quantity: z.coerce.number(), item_price: z.coerce.number(), currency: text }).passthrough())
          .max(1000)
          .optional(),
      })
      .passthrough()
      .optional(),
    system: z.object({ body: text.optional(), type: text.optional(), wa_id: text.optional(), new_wa_id: text.optional() }).passthrough().optional(),
    unsupported: z.object({ type: text.optional() }).passthrough().optional(),
    errors: z.array(z.object({ code: z.number().optional(), title: text.optional(), message: text.optional() }).passthrough()).optional(),
    referral: z
      .object({
        source_url: text.optional(),
        source_type: text.optional(),
        source_id: text.optional(),
        headline: text.optional(),
        body: text.optional(),
        media_type: text.optional(),
        image_url: text.optional(),
        video_url: text.optional(),
        ctwa_clid: text.optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type CloudMessage = z.infer<typeof CloudMessage>;

export const CloudError = z.object({ code: z.number().optional(), title: text.optional(), message: text.optional(), error_data: z.object({ details: text.optional() }).passthrough().optional() }).passthrough();

export const CloudStatus = z
  .object({
    id: z.string(),
    status: z.string(),
    recipient_id: z.string().optional(),
    /** What the send carried in `biz_opaque_callback_data`: our send key. */
    biz_opaque_callback_data: z.string().max(512).optional(),
    errors: z.array(CloudError).optional(),
    conversation: z
      .object({ id: z.string().max(200).optional(), origin: z.object({ type: z.string().max(100).optional() }).passthrough().optional(), expiration_timestamp: z.union([z.string(), z.number()]).optional() })
      .passthrough()
      .optional(),
    pricing: z.object({ billable: z.boolean().optional(), pricing_model: z.string().max(100).optional(), category: z.string().max(100).optional() }).passthrough().optional(),
  })
  .passthrough();

/** A status's conversation and pricing objects (what Meta bills), or null when it has neither. */
export function billingOf(status: z.infer<typeof CloudStatus>): NonNullable<MessageData['billing']> | null {
  const { conversation, pricing } = status;
  if (!conversation && !pricing) return null;
  const expires = Number(conversation?.expiration_timestamp);
  const billing: NonNullable<MessageData['billing']> = {
    ...(conversation?.id ? { conversationId: conversation.id } : {}),
    ...(conversation?.origin?.type ? { conversationCategory: conversation.origin.type } : {}),
    ...(Number.isFinite(expires) && expires > 0 && expires < 253_402_300_800 ? { conversationExpiresAt: new Date(expires * 1000).toISOString() } : {}),
    ...(typeof pricing?.billable === 'boolean' ? { billable: pricing.billable } : {}),
    ...(pricing?.pricing_model ? { pricingModel: pricing.pricing_model } : {}),
    ...(pricing?.category ? { pricingCategory: pricing.category } : {}),
  };
  return Object.keys(billing).length ? billing : null;
}

export const WebhookValue = z
  .object({
    metadata: z.object({ phone_number_id: z.string().optional() }).passthrough().optional(),
    contacts: z.array(z.object({ wa_id: z.string().optional(), profile: z.object({ name: z.string().optional() }).passthrough().optional() }).passthrough()).optional(),
    messages: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
    errors: z.array(z.unknown()).optional(),
  })
  .passthrough();
export type WebhookValue = z.infer<typeof WebhookValue>;

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type CloudMediaType = (typeof MEDIA_TYPES)[number];

export function isMediaMessage(message: CloudMessage): message is CloudMessage & { type: CloudMediaType } {
  return (MEDIA_TYPES as readonly string[]).includes(message.type);
}

/** The media object of a media message (Meta: id, mime_type, sha256, caption, filename, voice, animated). */
interface CloudMedia {
  id?: string;
  caption?: string;
  filename?: string;
  mime_type?: string;
  sha256?: string;
  voice?: boolean;
}

export function mediaOf(message: CloudMessage & { type: CloudMediaType }): CloudMedia {
  const inner = (message[message.type] ?? {}) as Record<string, unknown>;
  const str = (key: string) => (typeof inner[key] === 'string' ? (inner[key] as string) : undefined);
  return { id: str('id'), caption: str('caption'), filename: str('filename'), mime_type: str('mime_type'), sha256: str('sha256'), voice: inner.voice === true };
}

/** Meta's error codes to ours, for a refused send and for a `failed` status alike. */
export function cloudErrorCode(code: number | null | undefined): ErrorCode {
  switch (code) {
    case 131047:
      return 'ERR_OUTSIDE_CUSTOMER_WINDOW';
    case 131026:
      return 'ERR_WA_UNDELIVERABLE';
    case 130429:
    case 131048:
    case 131056:
      return 'ERR_WA_RATE_LIMITED';
    case 190:
      return 'ERR_WA_TOKEN_INVALID';
    default:
      return 'ERR_SENDING_WAPP_MSG';
  }
}

function vcardOf(contact: MessageDataContact): string {
  const phones = contact.phones.map((phone) => `TEL;type=${(phone.type ?? 'CELL').toUpperCase()}${phone.waId ? `;waid=${phone.waId}` : ''}:${phone.phone}`);
  const emails = (contact.emails ?? []).map((email) => `EMAIL${email.type ? `;type=${email.type.toUpperCase()}` : ''}:${email.email}`);
  const typed = (type: string | undefined) => (type ? `;type=${type.toUpperCase()}` : '');
  const addresses = (contact.addresses ?? []).map((address) => `ADR${typed(address.type)}:;;${address.address.replace(/[;\n]/g, ' ')};;;;`);
  const urls = (contact.urls ?? []).map((url) => `URL${typed(url.type)}:${url.url}`);
  const birthday = contact.birthday ? [`BDAY:${contact.birthday}`] : [];
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${contact.name}`, ...(contact.organization ? [`ORG:${contact.organization}`] : []), ...phones, ...emails, ...addresses, ...urls, ...birthday, 'END:VCARD'].join('\n');
}

function contactsOf(message: CloudMessage): MessageDataContact[] {
  return (message.contacts ?? []).map((contact) => ({
    name: contact.name?.formatted_name ?? [contact.name?.first_name, contact.name?.last_name].filter(Boolean).join(' '),
    phones: (contact.phones ?? []).map((phone) => ({ phone: phone.phone ?? phone.wa_id ?? '', ...(phone.type ? { type: phone.type } : {}), ...(phone.wa_id ? { waId: phone.wa_id } : {}) })),
    ...(contact.emails?.length ? { emails: contact.emails.map((email) => ({ email: email.email ?? '', ...(email.type ? { type: email.type } : {}) })) } : {}),
    ...(contact.org?.company ? { organization: contact.org.company } : {}),
    ...addressesOf(contact.addresses),
    ...(contact.birthday && /^\d{4}-\d{2}-\d{2}$/.test(contact.birthday) ? { birthday: contact.birthday } : {}),
    ...(contact.urls?.some((url) => url.url) ? { urls: contact.urls.filter((url) => url.url).map((url) => ({ url: url.url ?? '', ...(url.type ? { type: url.type } : {}) })) } : {}),
  }));
}

/** A card's addresses, each on one line (Meta gives street, city, state, zip and country apart). */
function addressesOf(addresses: NonNullable<CloudMessage['contacts']>[number]['addresses']): Pick<MessageDataContact, 'addresses'> {
  const lines = (addresses ?? [])
    .map((address) => ({ address: [address.street, address.city, address.state, address.zip, address.country].filter(Boolean).join(', '), type: address.type }))
    .filter((address) => address.address)
    .map((address) => ({ address: address.address, ...(address.type ? { type: address.type } : {}) }));
  return lines.length ? { addresses: lines } : {};
}

/** A Flow's submitted fields (its `response_json`), without the flow token. */
function flowFields(json: string | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { response: json };
    const { flow_token: _token, ...fields } = parsed as Record<string, unknown>;
    return fields;
  } catch {
    return { response: json };
  }
}

const fieldText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What every message may carry: the ad that brought the customer, the forwarded marks. */
export function commonData(message: CloudMessage): MessageData {
  const data: MessageData = {};
  const referral = message.referral;
  if (referral) {
    data.referral = {
      sourceUrl: referral.source_url,
      sourceType: referral.source_type,
      sourceId: referral.source_id,
      headline: referral.headline,
      body: referral.body,
      mediaType: referral.media_type,
      mediaUrl: referral.image_url ?? referral.video_url,
      ctwaClid: referral.ctwa_clid,
    };
  }
  if (message.context?.frequently_forwarded) data.forwarded = 'frequently';
  else if (message.context?.forwarded) data.forwarded = 'forwarded';
  return data;
}

const UNSUPPORTED_TEXT = 'message type not supported by WhatsApp Cloud API';

/**
 * The ingest fields of a message that needs no download: a readable body for
 * every client and the details in `data`. Null only for reactions, which change
 * the message they react to (see `processWebhookValue`).
 */
export function mapCloudMessage(message: CloudMessage): Pick<InboundMessage, 'body' | 'specialType' | 'data' | 'source'> | null {
  const data = commonData(message);
  const withData = (fields: Pick<InboundMessage, 'body' | 'specialType' | 'source'>, extra: MessageData = {}) => {
    const merged = { ...data, ...extra };
    return { ...fields, ...(Object.keys(merged).length ? { data: merged } : {}) };
  };
  switch (message.type) {
    case 'text':
      return withData({ body: message.text?.body ?? '' });
    case 'location': {
      const location = message.location;
      if (!location) break;
      const label = [location.name, location.address].filter(Boolean).join(' - ');
      const link = `https://maps.google.com/maps?q=${location.latitude},${location.longitude}&z=17`;
      return withData(
        { body: label ? `${link}\n${label}` : link, specialType: 'locationMessage' },
        { location: { latitude: location.latitude, longitude: location.longitude, name: location.name, address: location.address, url: location.url } },
      );
    }
    case 'contacts': {
      const contacts = contactsOf(message);
      return withData({ body: contacts.map(vcardOf).join('\n'), specialType: 'vcard' }, { contacts });
    }
    case 'interactive': {
      const interactive = message.interactive;
      if (interactive?.nfm_reply) {
        const fields = flowFields(interactive.nfm_reply.response_json);
        const lines = Object.entries(fields).map(([key, value]) => `${key}: ${fieldText(value)}`);
        return withData({ body: [interactive.nfm_reply.body, ...lines].filter(Boolean).join('\n') }, { flow: { name: interactive.nfm_reply.name, fields } });
      }
      const button = interactive?.button_reply;
      if (button) return withData({ body: button.title }, { reply: { kind: 'button', id: button.id ?? '', title: button.title } });
      const list = interactive?.list_reply;
      if (list) return withData({ body: list.title }, { reply: { kind: 'list', id: list.id ?? '', title: list.title, ...(list.description ? { description: list.description } : {}) } });
      break;
    }
    case 'button':
      return withData({ body: message.button?.text ?? '' }, { button: { text: message.button?.text ?? '', payload: message.button?.payload } });
    case 'order': {
      const order = message.order;
      const items = (order?.product_items ?? []).map((item) => ({ productId: item.product_retailer_id, quantity: item.quantity, price: item.item_price, currency: item.currency }));
      const summary = { catalogId: order?.catalog_id, text: order?.text, items };
      return withData({ body: orderSummary(summary) }, { order: summary });
    }
    case 'system': {
      const system = message.system;
      const newNumber = system?.new_wa_id ?? (system?.type?.includes('changed_number') ? system.wa_id : undefined);
      return withData(
        { body: system?.body ?? system?.type ?? 'system', source: 'system' },
        { system: { kind: system?.type ?? 'system', text: system?.body ?? '', ...(newNumber ? { newNumber: newNumber.replace(/\D/g, '') } : {}) } },
      );
    }
    case 'reaction':
      return null;
    default:
      break;
  }
  // `unsupported` (131051), and any kind this version does not know: never dropped.
  const error = message.errors?.[0];
  const type = message.unsupported?.type ?? (message.type === 'unsupported' ? undefined : message.type);
  return withData({ body: type ? `${UNSUPPORTED_TEXT} (${type})` : UNSUPPORTED_TEXT }, { unsupported: { type, code: error?.code, title: error?.title ?? error?.message } });
}
