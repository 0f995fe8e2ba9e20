import { calendarDate, EditMessageBody, ForwardMessageBody, id, MessageReactionBody, queryFlag, SendMessageBody } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTicket } from '../tickets/tickets.presenter.js';
import { countMessages, editMessage, ForwardFailed, forwardMessages, reactToMessage } from './message-actions.js';
import { presentedMessagesJson, presentMessage } from './messages.presenter.js';
import { deleteMessage, listMessages, retryMessage, SendFailed, sendMessage, type MessagesDeps, type SendInput } from './messages.service.js';

const TicketParams = z.object({ ticketId: id() });

function failedWith(error: AppError, messages: unknown[]): AppError {
  return new AppError(error.code, error.statusCode, { ...error.extra, messages });
}

/** Multipart sends: files in `medias`, text fields `body`, `sign`, `quotedMsgId`, `stickerId`; v6's `forceMediaType: 'sticker'` sends the images as stickers. */
async function readMultipart(request: FastifyRequest): Promise<SendInput> {
  const files: NonNullable<SendInput['files']> = [];
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'medias') throw new AppError('ERR_VALIDATION', undefined, { message: `Unexpected file field ${part.fieldname}` });
      const data = await part.toBuffer();
      files.push({ data, fileName: part.filename || 'file', mimeType: part.mimetype });
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  const parsed = SendMessageBody.pick({ body: true, sign: true, stickerId: true }).safeParse({ body: fields.body ?? '', sign: fields.sign, stickerId: fields.stickerId });
  if (!parsed.success) throw parsed.error;
  // A media message's body is the file name in the spec's client; a caption is sent only when it differs.
  const body = files.length > 0 && files.some((f) => f.fileName === parsed.data.body) ? '' : parsed.data.body;
  return {
    body,
    files,
    sign: parsed.data.sign,
    stickerId: parsed.data.stickerId,
    asSticker: fields.forceMediaType === 'sticker',
    quotedMsgId: fields.quotedMsgId ? Number(fields.quotedMsgId) || null : null,
  };
}

export function registerMessageRoutes(scope: FastifyInstance, deps: MessagesDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/messages/:ticketId',
    { schema: { params: TicketParams, querystring: z.object({ pageNumber: z.coerce.number().int().min(1).max(100_000).default(1) }) } },
    async (request, reply) => {
      const page = await listMessages(deps, request.ctx, request.params.ticketId, request.query.pageNumber);
      // The messages come presented from the database (pageConversation) as JSON text.
      const messages = presentedMessagesJson(page.messages, deps.media);
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"messages":${messages},"ticket":${JSON.stringify(presentTicket(page.ticket))},"hasMore":${page.hasMore}}`);
    },
  );

  app.post('/messages/:ticketId', { schema: { params: TicketParams } }, async (request, reply) => {
    let input: SendInput;
    if (request.isMultipart()) {
      input = await readMultipart(request);
    } else {
      const parsed = SendMessageBody.safeParse(request.body ?? {});
      if (!parsed.success) throw parsed.error;
      input = { body: parsed.data.body, sign: parsed.data.sign, stickerId: parsed.data.stickerId, quotedMsgId: parsed.data.quotedMsg?.id ?? null };
    }
    try {
      const sent = await sendMessage(deps, request.ctx, request.params.ticketId, input);
      return reply.status(201).send(sent.map((m) => presentMessage(m, deps.media)));
    } catch (error) {
      if (!(error instanceof SendFailed)) throw error;
      // The channel's error as before, with the stored messages: the failed ones wait for a retry.
      throw failedWith(error.error, error.messages.map((m) => presentMessage(m, deps.media)));
    }
  });

  app.post('/messages/:messageId/retry', { schema: { params: z.object({ messageId: id() }) } }, async (request) => {
    const { message, error } = await retryMessage(deps, request.ctx, request.params.messageId);
    const presented = presentMessage(message, deps.media);
    if (error) throw failedWith(error, [presented]);
    return presented;
  });

  app.delete('/messages/:id', { schema: { params: z.object({ id: id() }) } }, async (request) => {
    return presentMessage(await deleteMessage(deps, request.ctx, request.params.id), deps.media);
  });

  // Message actions (issue 32). v6 edits through POST /messages/edit/:messageId; PUT /messages/:id is the same edit.
  const MessageParams = z.object({ messageId: id() });
  app.post('/messages/edit/:messageId', { schema: { params: MessageParams, body: EditMessageBody } }, async (request) => {
    return presentMessage(await editMessage(deps, request.ctx, request.params.messageId, request.body.body), deps.media);
  });
  app.put('/messages/:id', { schema: { params: z.object({ id: id() }), body: EditMessageBody } }, async (request) => {
    return presentMessage(await editMessage(deps, request.ctx, request.params.id, request.body.body), deps.media);
  });

  app.post('/messages/:messageId/reactions', { schema: { params: MessageParams, body: MessageReactionBody } }, async (request) => {
    const message = presentMessage(await reactToMessage(deps, request.ctx, request.params.messageId, request.body.type), deps.media);
    // v6 reads `reactions`; the message is ours.
    return { message, reactions: message.dataJson?.reactions ?? [] };
  });

  app.post('/message/forward', { schema: { body: ForwardMessageBody } }, async (request) => {
    const { body } = request;
    const input = {
      messageIds: [...(body.messageIds ?? []), ...(body.messageId == null ? [] : [body.messageId])],
      contactIds: [...(body.contactIds ?? []), ...(body.contactId == null ? [] : [body.contactId])],
      sign: body.signMessage ?? false,
    };
    try {
      const sent = await forwardMessages(deps, request.ctx, input);
      return { messages: sent.map((m) => presentMessage(m, deps.media)) };
    } catch (error) {
      if (!(error instanceof ForwardFailed)) throw error;
      throw failedWith(error.error, error.messages.map((m) => presentMessage(m, deps.media)));
    }
  });

  app.get(
    '/messages-allMe',
    { schema: { querystring: z.object({ fromMe: queryFlag().optional(), dateStart: calendarDate(), dateEnd: calendarDate() }) } },
    async (request) => {
      const count = await countMessages(deps, request.ctx, request.query);
      // v6 reads `count[0].count`.
      return { count: [{ count }] };
    },
  );
}
