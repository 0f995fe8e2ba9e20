import { ContactBody, ContactListQuery, ContactUpdateBody, ContactUploadBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { importContacts, uploadContacts } from './contacts-import.service.js';
import { presentContact, presentContactSummary } from './contacts.presenter.js';
import { listAllContacts, listContacts } from './contacts.repo.js';
import { createContact, deleteContact, showContact, updateContact } from './contacts.service.js';

/** A 10 000-row spreadsheet as JSON is larger than the default body limit. */
const UPLOAD_BODY_LIMIT = 8 * 1024 * 1024;

export function registerContactRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/contacts', { schema: { querystring: ContactListQuery } }, async (request) => {
    const page = await listContacts(services.db, request.ctx, request.query);
    return { contacts: page.contacts.map(presentContact), hasMore: page.hasMore, count: page.count };
  });

  // `companyId` is accepted for compatibility and ignored: the session decides the company.
  app.get('/contacts/list', { schema: { querystring: z.object({ companyId: z.string().max(20).optional() }) } }, async (request) => {
    return (await listAllContacts(services.db, request.ctx)).map(presentContactSummary);
  });

  app.get('/contacts/:id', { schema: { params: IdParams } }, async (request) => {
    return presentContact(await showContact(services, request.ctx, request.params.id));
  });

  app.post('/contacts', { schema: { body: ContactBody } }, async (request, reply) => {
    return reply.status(201).send(presentContact(await createContact(services, request.ctx, request.body)));
  });

  app.put('/contacts/:id', { schema: { params: IdParams, body: ContactUpdateBody } }, async (request) => {
    return presentContact(await updateContact(services, request.ctx, request.params.id, request.body));
  });

  app.delete('/contacts/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteContact(services, request.ctx, request.params.id);
    return { message: 'Contact deleted' };
  });

  app.post('/contacts/upload', { schema: { body: ContactUploadBody }, bodyLimit: UPLOAD_BODY_LIMIT }, async (request) => {
    return uploadContacts(services, request.ctx, request.body);
  });

  app.post('/contacts/import', async (request) => {
    return importContacts(services, request.ctx);
  });
}
