import type { PresentedCampaign } from '@atende/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import { editableParts } from './campaign-dialog';
import CampaignReportPage from './campaign-report-page';
import CampaignsPage from './campaigns-page';

const socketServer = standInSocketServer();
const at = '2026-11-25T10:00:00.000Z';

const buildCampaign = (overrides: Partial<PresentedCampaign> = {}): PresentedCampaign => ({
  id: 5,
  name: 'Black Friday',
  message1: 'Olá {nome}',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  status: 'EM_ANDAMENTO',
  scheduledAt: at,
  completedAt: null,
  whatsappId: 2,
  whatsapp: { id: 2, name: 'Loja' },
  contactListId: 7,
  contactList: { id: 7, name: 'Clientes VIP' },
  tagId: null,
  fileListId: null,
  confirmation: false,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  progress: { valid: 4, queued: 3, sent: 1, delivered: 0, failed: 0, cancelled: 0 },
  failures: [],
  createdAt: at,
  updatedAt: at,
  ...overrides,
});

const admin = buildUser(1, { name: 'Ana', profile: 'admin', company: buildUserCompany({}, { useCampaigns: true }) });

const renderAt = (path: string) => renderPages(path, { '/campaigns': <CampaignsPage />, '/campaign/:campaignId/report': <CampaignReportPage /> });

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/campaigns');
});
afterEach(() => vi.unstubAllGlobals());

describe('campaigns pages', { timeout: 30_000 }, () => {
  it('lists campaigns with their status, stops a running one and shows the change', async () => {
    const api = fakeApi({
      'GET /auth/me': () => admin,
      'GET /campaigns': () => ({ records: [buildCampaign()], hasMore: false }),
      'POST /campaigns/5/cancel': () => json(buildCampaign({ status: 'CANCELADA' })),
    });
    renderAt('/campaigns');
    const row = await screen.findByTestId('campaign-row');
    expect(within(row).getByTestId('campaign-status').dataset.status).toBe('EM_ANDAMENTO');
    await userEvent.click(within(row).getByTestId('campaign-stop'));
    await waitFor(() => expect(within(screen.getByTestId('campaign-row')).getByTestId('campaign-status').dataset.status).toBe('CANCELADA'));
    expect(api.calls('POST /campaigns/5/cancel')).toHaveLength(1);
    expect(within(screen.getByTestId('campaign-row')).getByTestId('campaign-restart')).toBeTruthy();
  });

  it('the report shows progress and updates live as sends settle', async () => {
    fakeApi({ 'GET /auth/me': () => admin, 'GET /campaigns/5': () => buildCampaign() });
    renderAt('/campaign/5/report');
    await waitFor(() => expect(screen.getByTestId('campaign-progress').dataset.percent).toBe('25'));
    expect(screen.getByTestId('campaign-contactList').textContent).toBe('Clientes VIP');
    await waitFor(() => expect(socketServer.connected()).toBe(true));
    // The provider hands the socket to the page once it is ready: push until the page has heard.
    await waitFor(async () => {
      await socketServer.push('company-3-campaign', {
        action: 'update',
        record: buildCampaign({ status: 'FINALIZADA', completedAt: at, progress: { valid: 4, queued: 0, sent: 3, delivered: 3, failed: 1, cancelled: 0 } }),
      });
      expect(screen.getByTestId('campaign-progress').dataset.percent).toBe('100');
    });
    expect(screen.getByTestId('campaign-delivered').textContent).toBe('3');
    expect(screen.getByTestId('campaign-failed').textContent).toBe('1');
  });

  it("the dialog offers a campaign's variables and the settings' keys as chips, and holds back a message with one it has not", async () => {
    const api = fakeApi({
      'GET /auth/me': () => admin,
      'GET /campaigns': () => ({ records: [], hasMore: false }),
      'GET /campaign-settings': () => [{ key: 'variables', value: JSON.stringify([{ key: 'loja', value: 'Centro' }]) }],
      'GET /whatsapp': () => [],
      'GET /contact-lists/list': () => [],
      'GET /tags/list': () => [],
      'GET /files': () => ({ files: [], hasMore: false }),
      'POST /campaigns': () => json(buildCampaign({ status: 'INATIVA', scheduledAt: null }), 201),
    });
    renderAt('/campaigns');
    await userEvent.click(await screen.findByTestId('campaign-add'));
    const dialog = await screen.findByTestId('campaign-dialog');
    await userEvent.click(within(dialog).getByTestId('campaign-name'));
    await userEvent.paste('Natal');
    // No ticket, no protocol: a campaign's chips leave it out and add the settings' keys.
    const loja = await within(dialog).findByRole('button', { name: 'Insert the variable loja' });
    expect(within(dialog).queryByRole('button', { name: 'Insert the variable Protocol' })).toBeNull();
    await userEvent.click(within(dialog).getByTestId('campaign-message2'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Insert the variable First name' }));
    await userEvent.click(loja);
    expect((within(dialog).getByTestId('campaign-message2') as HTMLTextAreaElement).value).toBe('{{firstName}}{{loja}}');

    await userEvent.click(within(dialog).getByTestId('campaign-message1'));
    await userEvent.paste('Protocolo {protocolo}');
    expect(within(dialog).getByText('Unknown variable: {protocolo}. Use one of the variables below or remove the braces.')).toBeTruthy();
    await userEvent.click(within(dialog).getByTestId('campaign-save'));
    expect(api.calls('POST /campaigns')).toHaveLength(0);
    await userEvent.clear(within(dialog).getByTestId('campaign-message1'));
    await userEvent.click(within(dialog).getByTestId('campaign-save'));
    await waitFor(() => expect(api.calls('POST /campaigns')).toHaveLength(1));
    expect(api.calls('POST /campaigns')[0]?.body).toMatchObject({ name: 'Natal', message1: '', message2: '{{firstName}}{{loja}}' });
  });

  it('follows the editable window of spec part 2 §4', () => {
    const now = Date.parse(at);
    expect(editableParts(null)).toBe('all');
    expect(editableParts(buildCampaign({ status: 'PROGRAMADA', scheduledAt: new Date(now + 2 * 3_600_000).toISOString() }), now)).toBe('all');
    expect(editableParts(buildCampaign({ status: 'PROGRAMADA', scheduledAt: new Date(now + 30 * 60_000).toISOString() }), now)).toBe('none');
    expect(editableParts(buildCampaign({ status: 'CANCELADA' }), now)).toBe('messages');
    expect(editableParts(buildCampaign({ status: 'FINALIZADA' }), now)).toBe('none');
  });
});
