import { DEFAULT_SCHEDULES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { connectionFormDefaults, connectionFormResolver, connectionPayload, schedulesFor, serverFieldErrors, tabOfField, type ConnectionFormValues } from './connection-form';

async function resolve(values: ConnectionFormValues) {
  return connectionFormResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });
}

describe('connection dialog form', () => {
  it("starts a new connection as the spec's default: provider 'beta', 3 queue-menu sends, default business hours", () => {
    const values = connectionFormDefaults();
    expect(values).toMatchObject({ provider: 'beta', maxUseBotQueues: 3, token: '', queueIds: [] });
    expect(values.schedules).toEqual(DEFAULT_SCHEDULES);
  });

  it('keeps stored hours and fills a missing day with its default, Monday to Sunday', () => {
    const schedules = schedulesFor([{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '09:00', endTime: '13:00' }]);
    expect(schedules.map((s) => s.weekdayEn)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(schedules[6]).toMatchObject({ startTime: '09:00', endTime: '13:00' });
    expect(schedules[0]).toMatchObject({ startTime: '08:00', endTime: '18:00' });
  });

  it('refuses a one-letter name and a short token with the shared messages', async () => {
    const result = await resolve({ ...connectionFormDefaults(), name: 'A', token: 'short' });
    expect(result.errors.name?.message).toBe('validation.tooShort');
    expect(result.errors.token?.message).toBe('validation.tooShort');
  });

  it('checks the Cloud API settings only for a Cloud API connection', async () => {
    const blankCloud = { ...connectionFormDefaults(), name: 'Loja' };
    const plain = await resolve(blankCloud);
    expect(plain.errors).toEqual({});
    expect(plain.values).toMatchObject({ name: 'Loja', provider: 'beta', cloudApi: undefined });

    const cloud = await resolve({ ...blankCloud, provider: 'cloud-api' });
    expect(Object.keys(cloud.errors.cloudApi ?? {}).sort()).toEqual(['phoneNumberId', 'verifyToken', 'wabaId']);
  });

  it('sends numbers as numbers, no provider on edit, and no empty secret (the stored one stays)', async () => {
    const values: ConnectionFormValues = {
      ...connectionFormDefaults(),
      name: 'Oficial',
      provider: 'cloud-api',
      expiresTicket: '30',
      transferQueueId: '',
      cloudApi: { phoneNumberId: '123', wabaId: '456', accessToken: '', appSecret: 'new-secret', verifyToken: 'verify-123', graphApiBaseUrl: 'http://graph.local' },
    };
    const result = await resolve(values);
    expect(result.errors).toEqual({});
    const edit = connectionPayload(result.values as never, { editing: true, isSuper: false });
    expect(edit).not.toHaveProperty('provider');
    expect(edit).toMatchObject({ name: 'Oficial', expiresTicket: 30, transferQueueId: null, cloudApi: { phoneNumberId: '123', wabaId: '456', appSecret: 'new-secret', verifyToken: 'verify-123' } });
    expect(edit.cloudApi).not.toHaveProperty('accessToken');
    // Only super users may move the Graph API address.
    expect(edit.cloudApi).not.toHaveProperty('graphApiBaseUrl');
    const create = connectionPayload(result.values as never, { editing: false, isSuper: true });
    expect(create).toMatchObject({ provider: 'cloud-api', cloudApi: { graphApiBaseUrl: 'http://graph.local' } });
  });

  it("places the server's field errors on the dialog's fields and tabs", () => {
    const fields = serverFieldErrors({ error: 'ERR_VALIDATION', fields: { token: ['This token is already in use: choose another one'], 'cloudApi.wabaId': ['Must be a number'], integration: ['x'] } });
    expect(fields).toEqual([
      ['token', 'This token is already in use: choose another one'],
      ['cloudApi.wabaId', 'Must be a number'],
      ['integrationId', 'x'],
    ]);
    expect(fields.map(([path]) => tabOfField(path))).toEqual(['general', 'cloudApi', 'automation']);
    expect(tabOfField('schedules.3.endTime')).toBe('hours');
    expect(serverFieldErrors({ error: 'ERR_NO_PERMISSION' })).toEqual([]);
  });
});
