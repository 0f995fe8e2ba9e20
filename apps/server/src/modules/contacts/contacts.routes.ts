import { CONTACT_UPLOAD_MAX_ROWS, ContactBody, type ExistingContactAnswer, ContactListQuery, ContactUpdateBody, ContactUploadBody, IdParams, validationText } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import { jsonArrayExcess } from '../../platform/http/json-shape.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { importContacts, uploadContacts, uploadContactsFile, type ContactImportDeps } from './contacts-import.service.js';
import { presentContact, presentContactSummary } from './contacts.presenter.js';
import { allContacts, contactPage, exportContacts, createContact, deleteContact, showContact, updateContact, type ContactsDeps } from './contacts.service.js';

/** A 10 000-row spreadsheet as JSON is larger than the default body limit. */
const UPLOAD_BODY_LIMIT = 8 * 1024 * 1024;
/** Cells (row members) per upload: 500 rows of 200 titled columns (the web sends 500 rows a request), or 10,000 of 10. */
const UPLOAD_MAX_CELLS = 100_000;

const tooLong = (message: string) => new AppError('ERR_VALIDATION', undefined, { message, fields: { _: [validationText('validation.tooLong')] } });

/**
 * `POST /contacts/upload` bodies have their shape checked on the raw text before
 * `JSON.parse` builds them: the row cap, the cells, and rows of scalar values
 * bound the parse and the validation to a few tens of milliseconds of the event
 * loop, whatever 8 MiB of JSON hold.
 */
function registerUploadParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: UPLOAD_BODY_LIMIT }, (request, body, done) => {
    const excess = jsonArrayExcess(body as string, { maxItems: CONTACT_UPLOAD_MAX_ROWS, maxMembers: UPLOAD_MAX_CELLS, maxDepth: 2 });
    if (excess === 'items') return done(tooLong('Invalid body'), undefined);
    if (excess === 'members') return done(tooLong(`At most ${UPLOAD_MAX_CELLS} cells per upload`), undefined);
    if (excess === 'depth') return done(new AppError('ERR_VALIDATION', undefined, { message: 'Invalid body: each row holds text, numbers, booleans or null' }), undefined);
    void parseJson(request, body as string, done);
  });
}

export function registerContactRoutes(scope: FastifyInstance, deps: ContactsDeps & ContactImportDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/contacts', { schema: { querystring: ContactListQuery } }, async (request) => {
    const page = await contactPage(deps, request.ctx, request.query);
    return { contacts: page.contacts.map(presentContact), hasMore: page.hasMore, count: page.count };
  });

  // `companyId` is accepted for compatibility and ignored: the session decides the company.
  app.get('/contacts/list', { schema: { querystring: z.object({ companyId: z.string().max(20).optional() }) } }, async (request) => {
    return (await allContacts(deps, request.ctx)).map(presentContactSummary);
  });

  app.get('/contacts/export', async (request) => (await exportContacts(deps, request.ctx)).map(presentContactSummary));

  app.get('/contacts/:id', { schema: { params: IdParams } }, async (request) => {
    return presentContact(await showContact(deps, request.ctx, request.params.id));
  });

  app.post('/contacts', { schema: { body: ContactBody } }, async (request, reply) => {
    const { contact, created } = await createContact(deps, request.ctx, request.body);
    if (!created) return reply.status(200).send({ alreadyExists: true, existingContact: presentContact(contact) } satisfies ExistingContactAnswer);
    return reply.status(201).send(presentContact(contact));
  });

  app.put('/contacts/:id', { schema: { params: IdParams, body: ContactUpdateBody } }, async (request) => {
    return presentContact(await updateContact(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/contacts/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteContact(deps, request.ctx, request.params.id);
    return { message: 'Contact deleted' };
  });

  void app.register(async (upload) => {
    registerUploadParser(upload);
    // The web app sends the rows as JSON; whaticket v6 sends the spreadsheet itself, multipart, in `file`.
    upload.withTypeProvider<ZodTypeProvider>().post('/contacts/upload', { schema: { body: ContactUploadBody.nullish() }, bodyLimit: UPLOAD_BODY_LIMIT }, async (request) => {
      if (request.isMultipart()) return uploadContactsFile(deps, request.ctx, await readUpload(request));
      if (!request.body) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send the rows as JSON or the spreadsheet as multipart/form-data', fields: { file: [validationText('validation.required')] } });
      return uploadContacts(deps, request.ctx, request.body);
    });
  });

  app.post('/contacts/import', async (request) => {
    return importContacts(deps, request.ctx);
  });
}
