import type { PresentedContactList, PresentedContactListItem } from '@atende/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import ContactListItemsPage from './contact-list-items-page';
import ContactListsPage from './contact-lists-page';

const socketServer = standInSocketServer();
const at = '2026-11-25T10:00:00.000Z';

const buildList = (overrides: Partial<PresentedContactList> = {}): PresentedContactList => ({ id: 7, name: 'Clientes VIP', contactsCount: 2, createdAt: at, updatedAt: at, ...overrides });
const buildItem = (overrides: Partial<PresentedContactListItem> = {}): PresentedContactListItem => ({
  id: 1,
  contactListId: 7,
  companyId: 3,
  name: 'Ana Souza',
  number: '5511987654321',
  email: '',
  isWhatsappValid: true,
  createdAt: at,
  updatedAt: at,
  ...overrides,
});

const admin = buildUser(1, { name: 'Ana', profile: 'admin', company: buildUserCompany({}, { useCampaigns: true }) });

const renderAt = (path: string) => renderPages(path, { '/contact-lists': <ContactListsPage />, '/contact-lists/:contactListId/contacts': <ContactListItemsPage /> });

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/contact-lists');
});
afterEach(() => vi.unstubAllGlobals());

describe('contact lists pages', { timeout: 30_000 }, () => {
  it('lists the lists with their counts, searches in lower case, creates one and shows it live', async () => {
    const api = fakeApi({
      'GET /auth/me': () => admin,
      'GET /contact-lists': (request) => ({ records: (request.query.get('searchParam') ?? '') === 'zzz' ? [] : [buildList()], hasMore: false }),
      'POST /contact-lists': (request) => json(buildList({ id: 8, name: (request.body as { name: string }).name, contactsCount: 0 }), 201),
    });
    renderAt('/contact-lists');
    const row = await screen.findByTestId('contact-list-row');
    expect(within(row).getByTestId('contact-list-count').textContent).toBe('2');
    await userEvent.click(screen.getByTestId('contact-list-add'));
    await userEvent.click(screen.getByTestId('contact-list-save'));
    // An empty name is refused in the dialog: nothing is sent.
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(api.calls('POST /contact-lists')).toHaveLength(0);
    await userEvent.type(screen.getByTestId('contact-list-name'), 'Leads Novembro');
    await userEvent.click(screen.getByTestId('contact-list-save'));
    await waitFor(() => expect(screen.getAllByTestId('contact-list-row').map((r) => r.dataset.listName)).toEqual(['Clientes VIP', 'Leads Novembro']));
    expect(api.calls('POST /contact-lists')[0]?.body).toEqual({ name: 'Leads Novembro' });
    await waitFor(() => expect(socketServer.connected()).toBe(true));
    await waitFor(async () => {
      await socketServer.push('company-3-ContactList', { action: 'update', record: buildList({ contactsCount: 40 }) });
      expect(screen.getAllByTestId('contact-list-count')[0]?.textContent).toBe('40');
    });
    await userEvent.type(screen.getByTestId('contact-list-search'), 'ZZZ');
    await waitFor(() => expect(api.calls('GET /contact-lists').some((c) => c.query.get('searchParam') === 'zzz')).toBe(true));
    expect(await screen.findByTestId('contact-lists-empty')).toBeTruthy();
  });

  it("shows a list's items with the WhatsApp icon, imports a spreadsheet and reports the refused rows", async () => {
    const items = [buildItem(), buildItem({ id: 2, name: 'Bruno Lima', number: '5521912345678', isWhatsappValid: null })];
    const api = fakeApi({
      'GET /auth/me': () => admin,
      'GET /contact-lists/7': () => buildList(),
      'GET /contact-list-items': () => ({ contacts: items, hasMore: false }),
      'POST /contact-lists/7/upload': () => ({ imported: 1, errors: [{ row: 3, name: 'E', number: '5511999', message: 'x', fields: { name: 'validation.tooShort' } }] }),
    });
    renderAt('/contact-lists/7/contacts');
    await waitFor(() => expect(screen.getByTestId('contact-list-items-title').textContent).toContain('Clientes VIP'));
    await waitFor(() => expect(screen.getAllByTestId('contact-list-item-row')).toHaveLength(2));
    expect(screen.getByTestId('item-valid')).toBeTruthy();
    expect(screen.getByTestId('item-unchecked')).toBeTruthy();
    const file = new File(['xlsx'], 'contatos.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await userEvent.upload(screen.getByTestId('contact-list-import-file'), file);
    const result = await screen.findByTestId('contact-list-import-result');
    expect(result.textContent).toContain('1 contact(s) imported.');
    // The count of what worked is a success, not a warning; the refused rows have the warning.
    expect(screen.getByTestId('contact-list-import-count').className).toContain('Success');
    expect(screen.getByTestId('contact-list-import-refused').className).toContain('Warning');
    expect(result.textContent).toContain('Row 3: E 5511999');
    expect((api.calls('POST /contact-lists/7/upload')[0]?.body as FormData).get('file')).toBeInstanceOf(File);
  });
});
