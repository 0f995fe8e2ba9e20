import { z } from 'zod';

/**
 * The sandbox connection's simulated phone (`/sandbox/:whatsappId/*`: tests, demos and
 * the e2e suite) as zod schemas, for the OpenAPI document (route-answers.ts).
 */
const int = () => z.number().int();

/** `POST /sandbox/:whatsappId/inbound`: what the ingest pipeline did with the customer's message (200: a repeated id). */
export const SandboxInboundAnswerSchema = z.object({
  duplicate: z.boolean(),
  ticketId: int().nullable(),
  messageId: int().nullable(),
  ticketCreated: z.boolean(),
  /** Not stored: a group message while the company ignores groups. */
  ignored: z.boolean().optional(),
});
export type SandboxInboundAnswer = z.infer<typeof SandboxInboundAnswerSchema>;

/** One message the product sent, as the simulated phone shows it (a deleted one without its text or file). */
export const SandboxOutboxEntrySchema = z.object({
  id: z.string(),
  body: z.string(),
  mediaType: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** A signed, expiring `/media/…` address. */
  mediaUrl: z.string().nullable(),
  quotedId: z.string().nullable(),
  deleted: z.boolean(),
  createdAt: z.string(),
});
export type SandboxOutboxEntry = z.infer<typeof SandboxOutboxEntrySchema>;

/** `GET /sandbox/:whatsappId/conversation`: both sides, in order. */
export const SandboxConversationEntrySchema = SandboxOutboxEntrySchema.extend({ fromCustomer: z.boolean() });
export type SandboxConversationEntry = z.infer<typeof SandboxConversationEntrySchema>;
