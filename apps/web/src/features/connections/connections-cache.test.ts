import type { PresentedConnectionDetail } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildConnection, buildConnectionSession } from '../../test/build-connection';
import { applyConnectionEvent, applySessionEvent } from './connections-queries';

const connection = (id: number, name: string, isDefault = false, status = 'CONNECTED'): PresentedConnectionDetail => buildConnection(id, { name, status, isDefault });

describe('live connection events', () => {
  it('updates a known connection in place', () => {
    const next = applyConnectionEvent([connection(1, 'A'), connection(2, 'B')], { action: 'update', whatsapp: connection(2, 'B', false, 'DISCONNECTED') });
    expect(next.map((c) => c.status)).toEqual(['CONNECTED', 'DISCONNECTED']);
  });

  it('adds a new connection in name order', () => {
    const next = applyConnectionEvent([connection(1, 'Alpha'), connection(2, 'Gamma')], { action: 'update', whatsapp: connection(3, 'Beta') });
    expect(next.map((c) => c.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('keeps one default: a new default demotes the old one', () => {
    const next = applyConnectionEvent([connection(1, 'A', true), connection(2, 'B')], { action: 'update', whatsapp: connection(2, 'B', true) });
    expect(next.map((c) => c.isDefault)).toEqual([false, true]);
  });

  it('removes a deleted connection', () => {
    expect(applyConnectionEvent([connection(1, 'A'), connection(2, 'B')], { action: 'delete', whatsappId: 1 }).map((c) => c.id)).toEqual([2]);
  });

  it("merges the company-wide event into an admin's row, keeping the token and Cloud API settings it leaves out", () => {
    const cloudApi = { phoneNumberId: '1', wabaId: '2', verifyToken: 'verify-me', graphApiBaseUrl: '', accessToken: '••••abcd', appSecret: '••••wxyz', webhookPath: '/cloud-api/webhook' };
    const admin: PresentedConnectionDetail = { ...connection(1, 'Loja'), token: 'secret-token-123456', cloudApi, qrcode: '' };
    const [next] = applyConnectionEvent([admin], { action: 'update', whatsapp: { ...connection(1, 'Loja nova'), greetingMessage: 'Olá' } });
    expect(next).toMatchObject({ name: 'Loja nova', greetingMessage: 'Olá', token: 'secret-token-123456', cloudApi });
  });

  it('applies a session event to the status and QR code of its connection only', () => {
    const list = [connection(1, 'A', true, 'OPENING'), connection(2, 'B')];
    const next = applySessionEvent(list, buildConnectionSession(1, { name: 'A', status: 'qrcode', qrcode: '2@abc', retries: 1, provider: 'beta', isDefault: true, updatedAt: '2025-01-01T00:00:00Z' }));
    expect(next[0]).toMatchObject({ status: 'qrcode', qrcode: '2@abc', retries: 1, updatedAt: '2025-01-01T00:00:00Z' });
    expect(next[1]).toBe(list[1]);
    expect(applySessionEvent(list, buildConnectionSession(9, { status: 'CONNECTED', provider: 'beta' }))).toEqual(list);
  });
});
