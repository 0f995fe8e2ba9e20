import { ChatBody, ChatListQuery, ChatMessageBody, ChatMessagesQuery, ChatReadBody, ChatRefParams, ChatUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../../platform/http/context.js';
import { requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentChat, presentChatMessage } from './chats.presenter.js';
import {
  chatMessagesPage,
  chatPage,
  createChat,
  deleteChat,
  leaveChat,
  readChat,
  sendChatMessage,
  showChat,
  unreadChats,
  updateChat,
  type ChatsDeps,
} from './chats.service.js';

/** Internal chat needs the plan's `useInternalChat` (spec part 2 §6); checked before the body is read. */
async function internalChatArea(request: { ctx: RequestContext }): Promise<void> {
  requireFeature(request.ctx, 'useInternalChat');
}

/** Internal chat (spec part 2 §2.10, §7): every route checks that the caller is a member. */
export function registerChatRoutes(scope: FastifyInstance, deps: ChatsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const gate = { preValidation: internalChatArea };

  app.get('/chats', { schema: { querystring: ChatListQuery }, ...gate }, async (request) => {
    const page = await chatPage(deps, request.ctx, request.query);
    return { records: page.records.map(presentChat), hasMore: page.hasMore };
  });
  // Ours (not in the spec): the side menu's dot and the top bar's badge.
  app.get('/chats/unread', gate, async (request) => ({ count: await unreadChats(deps, request.ctx) }));
  app.get('/chats/:id', { schema: { params: ChatRefParams }, ...gate }, async (request) => presentChat(await showChat(deps, request.ctx, request.params.id)));
  app.post('/chats', { schema: { body: ChatBody }, ...gate }, async (request, reply) => {
    const chat = await createChat(deps, request.ctx, request.body);
    // The members' `create` events go out first: whaticket v6's chat page keeps the new chat only then.
    await deps.publisher.sent();
    return reply.status(201).send(presentChat(chat));
  });
  app.put('/chats/:id', { schema: { params: ChatRefParams, body: ChatUpdateBody }, ...gate }, async (request) =>
    presentChat(await updateChat(deps, request.ctx, request.params.id, request.body)),
  );
  app.delete('/chats/:id', { schema: { params: ChatRefParams }, ...gate }, async (request) => {
    await deleteChat(deps, request.ctx, request.params.id);
    return { message: 'Chat deleted' };
  });
  // Ours: a member other than the owner leaves the chat.
  app.post('/chats/:id/leave', { schema: { params: ChatRefParams }, ...gate }, async (request) => {
    await leaveChat(deps, request.ctx, request.params.id);
    return { message: 'Chat left' };
  });
  app.post('/chats/:id/read', { schema: { params: ChatRefParams, body: ChatReadBody }, ...gate }, async (request) =>
    presentChat(await readChat(deps, request.ctx, request.params.id)),
  );
  app.get('/chats/:id/messages', { schema: { params: ChatRefParams, querystring: ChatMessagesQuery }, ...gate }, async (request) => {
    const page = await chatMessagesPage(deps, request.ctx, request.params.id, request.query.pageNumber);
    return { records: page.records.map(presentChatMessage), hasMore: page.hasMore };
  });
  app.post('/chats/:id/messages', { schema: { params: ChatRefParams, body: ChatMessageBody }, ...gate }, async (request, reply) => {
    const { message } = await sendChatMessage(deps, request.ctx, request.params.id, request.body);
    return reply.status(201).send(presentChatMessage(message));
  });
}
