import type { PresentedFileList } from '@atende/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import FileListsPage from './file-lists-page';

const socketServer = standInSocketServer();
const at = '2026-11-25T10:00:00.000Z';
const admin = buildUser(1, { name: 'Ana', profile: 'admin', company: buildUserCompany() });
const buildFileList = (overrides: Partial<PresentedFileList> = {}): PresentedFileList => ({ id: 4, name: 'Catálogo', message: 'Materiais', options: [], createdAt: at, updatedAt: at, ...overrides });

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/files');
});
afterEach(() => vi.unstubAllGlobals());

describe('file lists page', { timeout: 30_000 }, () => {
  it('creates a list with an option, then uploads its file to that option', async () => {
    const saved = buildFileList({ options: [{ id: 11, name: 'Tabela', path: null, mediaType: null, mediaUrl: null }] });
    const api = fakeApi({
      'GET /auth/me': () => admin,
      'GET /files': () => ({ files: [], hasMore: false }),
      'POST /files': () => json(saved, 201),
      'POST /files/uploadList/4': () => ({ ...saved, options: [{ ...saved.options[0]!, path: 'tabela.pdf', mediaType: 'application' }] }),
    });
    renderPages('/files', { '/files': <FileListsPage /> });
    expect(await screen.findByTestId('file-lists-empty')).toBeTruthy();
    await userEvent.click(screen.getByTestId('file-list-add'));
    await userEvent.type(screen.getByTestId('file-list-name'), 'Catálogo');
    await userEvent.type(screen.getByTestId('file-list-message'), 'Materiais');
    await userEvent.click(screen.getByTestId('file-list-add-option'));
    await userEvent.type(screen.getByTestId('file-list-option-name-0'), 'Tabela');
    await userEvent.upload(screen.getByTestId('file-list-option-file-0'), new File(['%PDF'], 'tabela.pdf', { type: 'application/pdf' }));
    await userEvent.click(screen.getByTestId('file-list-save'));
    await waitFor(() => expect(api.calls('POST /files/uploadList/4')).toHaveLength(1));
    expect(api.calls('POST /files')[0]?.body).toEqual({ name: 'Catálogo', message: 'Materiais', options: [{ name: 'Tabela' }] });
    const form = api.calls('POST /files/uploadList/4')[0]?.body as FormData;
    expect(form.get('optionId')).toBe('11');
    expect((form.get('files') as File).name).toBe('tabela.pdf');
  });
});
