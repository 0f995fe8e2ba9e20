import { ContactListBody, ContactListItemBody, ContactListItemsQuery, ContactListItemUpdateBody, ContactListsQuery, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { presentContactList, presentContactListItem } from './contact-lists.presenter.js';
import {
  findContactListItems,
  allContactLists,
  contactListItemPage,
  contactListPage,
  createContactList,
  createContactListItem,
  removeContactList,
  removeContactListItem,
  showContactList,
  showContactListItem,
  updateContactList,
  updateListItem,
  uploadContactList,
  type ContactListsDeps,
} from './contact-lists.service.js';

/** Campaign area (spec part 2 §6): admins of a company whose plan allows campaigns; checked before the body is read. */
async function campaignArea(request: { ctx: RequestContext }): Promise<void> {
  requireAdmin(request.ctx);
  requireFeature(request.ctx, 'useCampaigns');
}

/** Contact lists and their items (spec part 2 §2.8, §7). */
export function registerContactListRoutes(scope: FastifyInstance, deps: ContactListsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const gate = { preValidation: campaignArea };

  app.get('/contact-lists', { schema: { querystring: ContactListsQuery }, ...gate }, async (request) => {
    const page = await contactListPage(deps, request.ctx, request.query);
    return { records: page.records.map(presentContactList), hasMore: page.hasMore };
  });
  // `companyId` is accepted for compatibility: the session decides it.
  app.get('/contact-lists/list', { schema: { querystring: z.object({ companyId: z.string().max(20).optional() }) }, ...gate }, async (request) =>
    (await allContactLists(deps, request.ctx)).map(presentContactList),
  );
  app.get('/contact-lists/:id', { schema: { params: IdParams }, ...gate }, async (request) => presentContactList(await showContactList(deps, request.ctx, request.params.id)));
  app.post('/contact-lists', { schema: { body: ContactListBody }, ...gate }, async (request, reply) =>
    reply.status(201).send(presentContactList(await createContactList(deps, request.ctx, request.body.name))),
  );
  app.put('/contact-lists/:id', { schema: { params: IdParams, body: ContactListBody.partial() }, ...gate }, async (request) =>
    presentContactList(await updateContactList(deps, request.ctx, request.params.id, request.body.name)),
  );
  app.delete('/contact-lists/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await removeContactList(deps, request.ctx, request.params.id);
    return { message: 'Contact list deleted' };
  });
  app.post('/contact-lists/:id/upload', { schema: { params: IdParams }, ...gate }, async (request) => {
    const file = await readUpload(request);
    return uploadContactList(deps, request.ctx, request.params.id, file);
  });

  app.get('/contact-list-items', { schema: { querystring: ContactListItemsQuery }, ...gate }, async (request) => {
    const page = await contactListItemPage(deps, request.ctx, request.query);
    return { contacts: page.contacts.map(presentContactListItem), hasMore: page.hasMore };
  });
  // whaticket v6's hook: every item of a list (or of the company), not a page.
  const ItemListQuery = z.object({ contactListId: z.coerce.number().int().positive().max(2_147_483_647).optional(), companyId: z.string().max(20).optional() });
  app.get('/contact-list-items/list', { schema: { querystring: ItemListQuery }, ...gate }, async (request) =>
    (await findContactListItems(deps, request.ctx, request.query.contactListId)).map(presentContactListItem),
  );
  app.get('/contact-list-items/:id', { schema: { params: IdParams }, ...gate }, async (request) =>
    presentContactListItem(await showContactListItem(deps, request.ctx, request.params.id)),
  );
  app.post('/contact-list-items', { schema: { body: ContactListItemBody }, ...gate }, async (request, reply) =>
    reply.status(201).send(presentContactListItem(await createContactListItem(deps, request.ctx, request.body))),
  );
  app.put('/contact-list-items/:id', { schema: { params: IdParams, body: ContactListItemUpdateBody }, ...gate }, async (request) =>
    presentContactListItem(await updateListItem(deps, request.ctx, request.params.id, request.body)),
  );
  app.delete('/contact-list-items/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await removeContactListItem(deps, request.ctx, request.params.id);
    return { message: 'Contact list item deleted' };
  });
}
