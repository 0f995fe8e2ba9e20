import type { PresentedAnnouncement } from '@atende/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import AnnouncementsPage from './announcements-page';

const socketServer = standInSocketServer();
const at = '2026-11-25T10:00:00.000Z';
const user = (isSuper: boolean) => buildUser(1, { name: 'Ana', profile: 'admin', super: isSuper, company: buildUserCompany() });
const announcement = (id: number, extra: Partial<PresentedAnnouncement> = {}): PresentedAnnouncement => ({
  id,
  title: `Aviso ${id}`,
  text: 'Texto',
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  createdAt: at,
  updatedAt: at,
  ...extra,
});

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/announcements');
});

describe('announcements page', { timeout: 30_000 }, () => {
  it('lists every announcement for a super user, with priority, attachment and status, and follows live events', async () => {
    let records = [announcement(2, { priority: 1, mediaName: 'aviso.png', mediaPath: 'aviso.png' }), announcement(1, { status: false })];
    fakeApi({ 'GET /auth/me': () => user(true), 'GET /announcements': () => ({ records, hasMore: false }) });
    renderPages('/announcements', { '/announcements': <AnnouncementsPage /> });
    const rows = await screen.findAllByTestId('announcement-row');
    expect(rows.map((row) => row.dataset.announcementTitle)).toEqual(['Aviso 2', 'Aviso 1']);
    expect(within(rows[0]!).getByText('High')).toBeTruthy();
    expect(within(rows[0]!).getByText('aviso.png')).toBeTruthy();
    expect(within(rows[1]!).getByText('Inactive')).toBeTruthy();
    await waitFor(() => expect(socketServer.connected()).toBe(true));
    records = [announcement(3), ...records];
    await waitFor(async () => {
      await socketServer.push('company-announcement', { action: 'create', record: announcement(3) });
      expect(screen.getAllByTestId('announcement-row')).toHaveLength(3);
    });
  });

  it('sends a user who is not a super user to / after the error toast, without loading anything', async () => {
    const api = fakeApi({ 'GET /auth/me': () => user(false) });
    renderPages('/announcements', { '/announcements': <AnnouncementsPage />, '/': <Where /> });
    await screen.findByText("You don't have permission to access this.");
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'), { timeout: 3000 });
    expect(api.calls('GET /announcements')).toHaveLength(0);
  });
});
