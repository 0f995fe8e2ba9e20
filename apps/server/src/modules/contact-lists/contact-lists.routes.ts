import { ContactListBody, ContactListItemBody, ContactListItemsQuery, ContactListItemUpdateBody, ContactListsQuery, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { listAllContactLists, listContactListItems, listContactLists, presentContactList, presentContactListItem } from './contact-lists.repo.js';
import {
  createContactList,
  createContactListItem,
  registerContactListJobs,
  removeContactList,
  removeContactListItem,
  showContactList,
  showContactListItem,
  updateContactList,
  updateListItem,
  uploadContactList,
} from './contact-lists.service.js';

/** Campaign area (spec part 2 §6): admins of a company whose plan allows campaigns; checked before the body is read. */
async function campaignArea(request: { ctx: RequestContext }): Promise<void> {
  requireAdmin(request.ctx);
  requireFeature(request.ctx, 'useCampaigns');
}

/** Contact lists and their items (spec part 2 §2.8, §7). */
export function registerContactListRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const gate = { preValidation: campaignArea };

  app.get('/contact-lists', { schema: { querystring: ContactListsQuery }, ...gate }, async (request) => {
    const page = await listContactLists(services.db, request.ctx, request.query);
    return { records: page.records.map(presentContactList), hasMore: page.hasMore };
  });
  // `companyId` is accepted for compatibility: the session decides it.
  app.get('/contact-lists/list', { schema: { querystring: z.object({ companyId: z.string().max(20).optional() }) }, ...gate }, async (request) =>
    (await listAllContactLists(services.db, request.ctx)).map(presentContactList),
  );
  app.get('/contact-lists/:id', { schema: { params: IdParams }, ...gate }, async (request) => presentContactList(await showContactList(services, request.ctx, request.params.id)));
  app.post('/contact-lists', { schema: { body: ContactListBody }, ...gate }, async (request, reply) =>
    reply.status(201).send(presentContactList(await createContactList(services, request.ctx, request.body.name))),
  );
  app.put('/contact-lists/:id', { schema: { params: IdParams, body: ContactListBody.partial() }, ...gate }, async (request) =>
    presentContactList(await updateContactList(services, request.ctx, request.params.id, request.body.name)),
  );
  app.delete('/contact-lists/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await removeContactList(services, request.ctx, request.params.id);
    return { message: 'Contact list deleted' };
  });
  app.post('/contact-lists/:id/upload', { schema: { params: IdParams }, ...gate }, async (request) => {
    const file = await readUpload(request);
    return uploadContactList(services, request.ctx, request.params.id, file);
  });

  app.get('/contact-list-items', { schema: { querystring: ContactListItemsQuery }, ...gate }, async (request) => {
    await showContactList(services, request.ctx, request.query.contactListId);
    const page = await listContactListItems(services.db, request.ctx, request.query);
    return { contacts: page.contacts.map(presentContactListItem), hasMore: page.hasMore };
  });
  app.get('/contact-list-items/:id', { schema: { params: IdParams }, ...gate }, async (request) =>
    presentContactListItem(await showContactListItem(services, request.ctx, request.params.id)),
  );
  app.post('/contact-list-items', { schema: { body: ContactListItemBody }, ...gate }, async (request, reply) =>
    reply.status(201).send(presentContactListItem(await createContactListItem(services, request.ctx, request.body))),
  );
  app.put('/contact-list-items/:id', { schema: { params: IdParams, body: ContactListItemUpdateBody }, ...gate }, async (request) =>
    presentContactListItem(await updateListItem(services, request.ctx, request.params.id, request.body)),
  );
  app.delete('/contact-list-items/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await removeContactListItem(services, request.ctx, request.params.id);
    return { message: 'Contact list item deleted' };
  });
}

/**
 * Realtime `company-{id}-ContactList` and `company-{id}-ContactListItem`
 * (create, update, delete; `reload` after an upload or a check; `checking`
 * with the WhatsApp check's progress) to the company's admins.
 */
export function subscribeContactListEvents(services: AppServices): void {
  const { events, publisher } = services;
  registerContactListJobs(services);
  const to = (companyId: number) => [rooms.admins(companyId)];
  events.on('contactList.saved', ({ companyId, action, contactList }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactList', { action, record: presentContactList(contactList) });
  });
  events.on('contactList.deleted', ({ companyId, contactListId }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactList', { action: 'delete', id: contactListId });
  });
  events.on('contactList.checking', ({ companyId, contactListId, total, unchecked }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactList', { action: 'checking', id: contactListId, total, unchecked });
  });
  events.on('contactListItem.saved', ({ companyId, action, item }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactListItem', { action, record: presentContactListItem(item) });
  });
  events.on('contactListItem.deleted', ({ companyId, item }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactListItem', { action: 'delete', id: item.id, contactListId: item.contactListId });
  });
  events.on('contactListItem.reload', ({ companyId, contactListId }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactListItem', { action: 'reload', contactListId });
  });
}
