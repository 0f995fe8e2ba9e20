import { z } from 'zod';

/**
 * What the payment providers' webhooks answer them, and the answers of the providers'
 * stand-ins (`/fake-psp/*`: Efí's Pix API, `/fake-asaas/*`: Asaas's API, mounted with
 * PIX_PROVIDER=fake for tests and demos) in those providers' shapes, as zod schemas for
 * the OpenAPI document (route-answers.ts).
 */
const int = () => z.number().int();

/** What a notified payment did (`paid` once; a notification repeated is `replay`). */
export const PAYMENT_NOTIFICATION_OUTCOMES = ['paid', 'replay', 'unknown-charge', 'not-paid', 'wrong-amount', 'wrong-invoice'] as const;
export type PaymentNotificationOutcome = (typeof PAYMENT_NOTIFICATION_OUTCOMES)[number];

/** `POST /payments/pix/webhook/:secret(/pix)`: each notified Pix's outcome (`no-txid`: the notification named no charge). */
export const PixWebhookAnswerSchema = z.object({
  received: int(),
  outcomes: z.array(z.enum([...PAYMENT_NOTIFICATION_OUTCOMES, 'no-txid'])),
});
export type PixWebhookAnswer = z.infer<typeof PixWebhookAnswerSchema>;

/** `POST /payments/asaas/webhook`: the event's outcome (`ignored`: not a payment received or confirmed). */
export const AsaasWebhookAnswerSchema = z.object({
  received: z.literal(true),
  outcome: z.enum([...PAYMENT_NOTIFICATION_OUTCOMES, 'ignored']),
});
export type AsaasWebhookAnswer = z.infer<typeof AsaasWebhookAnswerSchema>;

/** `POST /subscription/validate/webhook` (whaticket v6): the address checked for form only. */
export const WebhookAddressCheckSchema = z.object({ success: z.boolean(), message: z.string(), url: z.string() });
export type WebhookAddressCheck = z.infer<typeof WebhookAddressCheckSchema>;

// Efí's Pix API (the stand-in's subset).

export const EfiTokenAnswerSchema = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: int(), scope: z.string() });

export const EfiRefundAnswerSchema = z.object({
  id: z.string(),
  rtrId: z.string(),
  valor: z.string(),
  horario: z.object({ solicitacao: z.string(), liquidacao: z.string() }),
  status: z.literal('DEVOLVIDO'),
});

export const EfiChargeAnswerSchema = z.object({
  calendario: z.object({ criacao: z.string(), expiracao: int() }),
  txid: z.string(),
  revisao: int(),
  loc: z.object({ id: int(), location: z.string(), tipoCob: z.literal('cob'), criacao: z.string() }),
  location: z.string(),
  status: z.enum(['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']),
  valor: z.object({ original: z.string() }),
  chave: z.string(),
  solicitacaoPagador: z.string().optional(),
  pixCopiaECola: z.string(),
  pix: z
    .array(z.object({ endToEndId: z.string(), txid: z.string(), valor: z.string(), chave: z.string(), horario: z.string(), devolucoes: z.array(EfiRefundAnswerSchema).optional() }))
    .optional(),
});

export const EfiLocationAnswerSchema = z.object({ id: int(), location: z.string(), tipoCob: z.literal('cob'), criacao: z.string(), txid: z.string() });
export const EfiQrCodeAnswerSchema = z.object({ qrcode: z.string() });
export const EfiWebhookAnswerSchema = z.object({ webhookUrl: z.string(), chave: z.string(), criacao: z.string() });
/** The stand-in's payer side (no real PSP has it): the charge paid, and the status its webhook call got (0: none made). */
export const FakePspPayAnswerSchema = z.object({ status: z.literal('CONCLUIDA'), txid: z.string(), endToEndId: z.string(), webhookStatus: int() });

// Asaas's API v3 (the stand-in's subset).

export const AsaasCustomerAnswerSchema = z.object({
  object: z.literal('customer'),
  id: z.string(),
  name: z.string(),
  cpfCnpj: z.string(),
  dateCreated: z.string(),
  deleted: z.boolean(),
});

export const AsaasPaymentAnswerSchema = z.object({
  object: z.literal('payment'),
  id: z.string(),
  customer: z.string(),
  billingType: z.enum(['PIX', 'BOLETO', 'CREDIT_CARD']),
  value: z.number(),
  netValue: z.number(),
  status: z.string(),
  dueDate: z.string(),
  description: z.string().nullable(),
  externalReference: z.string().nullable(),
  invoiceUrl: z.string(),
  bankSlipUrl: z.string().nullable(),
  invoiceNumber: z.string(),
  deleted: z.boolean(),
  dateCreated: z.string(),
  confirmedDate: z.string().nullable(),
  paymentDate: z.string().nullable(),
  creditCard: z.object({ creditCardNumber: z.string(), creditCardBrand: z.string(), creditCardToken: z.string() }).nullable(),
});

/** The QR code image (base64 PNG), its copy-and-paste code, and when it expires. */
export const AsaasPixQrCodeAnswerSchema = z.object({ encodedImage: z.string(), payload: z.string(), expirationDate: z.string() });
export const AsaasIdentificationFieldAnswerSchema = z.object({ identificationField: z.string(), nossoNumero: z.string(), barCode: z.string() });

/** A webhook as Asaas shows it: never its token, only whether it has one. */
export const AsaasWebhookSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  email: z.string(),
  enabled: z.boolean(),
  interrupted: z.boolean(),
  sendType: z.string(),
  events: z.array(z.string()),
  hasAuthToken: z.boolean(),
});

export const AsaasWebhookListSchema = z.object({
  object: z.literal('list'),
  hasMore: z.boolean(),
  totalCount: int(),
  limit: int(),
  offset: int(),
  data: z.array(AsaasWebhookSchema),
});

/** The stand-in's payer side: the payment received, and the status its last webhook call got (0: none made). */
export const FakeAsaasPayAnswerSchema = z.object({ status: z.string(), id: z.string(), webhookStatus: int() });
