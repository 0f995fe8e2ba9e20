import { AUDIT_ACTION_NAMES, AUDIT_ENTITIES, AUDIT_FIELDS, SETTING_KEYS } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { auditFieldTexts } from './audit-fields.i18n';
import { auditLogsTexts } from './audit-logs.i18n';
import { describeChange, fieldTextKey, valueTextKey } from './audit-logs-queries';

describe('the audit log page', () => {
  it('names every action and entity the server records, in pt, en and es', () => {
    for (const texts of [auditLogsTexts.pt, auditLogsTexts.en, auditLogsTexts.es]) {
      for (const action of AUDIT_ACTION_NAMES) expect(texts.actions[action.replace('.', '_') as keyof typeof texts.actions], action).toBeTruthy();
      for (const entity of AUDIT_ENTITIES) expect(texts.entities[entity], entity).toBeTruthy();
    }
  });

  it('names every field a change can carry (entity fields, settings, uploads), in pt, en and es', () => {
    for (const texts of [auditFieldTexts.pt, auditFieldTexts.en, auditFieldTexts.es]) {
      for (const field of AUDIT_FIELDS) expect(texts.fields[field], field).toBeTruthy();
      for (const key of SETTING_KEYS) expect(texts.settings[key], key).toBeTruthy();
      expect(texts.upload).toContain('{{name}}');
    }
    expect(fieldTextKey('greetingMessage')).toEqual({ key: 'auditLogs.fields.greetingMessage' });
    expect(fieldTextKey('userRating')).toEqual({ key: 'auditLogs.settings.userRating' });
    // `language` is an integration's field and a setting: a setting's entry names the company's language.
    expect(fieldTextKey('language', 'setting')).toEqual({ key: 'auditLogs.settings.language' });
    expect(fieldTextKey('language', 'integration')).toEqual({ key: 'auditLogs.fields.language' });
    expect(fieldTextKey('upload.logoLight')).toEqual({ key: 'auditLogs.upload', name: 'logoLight' });
    // A name an older or newer version recorded stays readable as it is.
    expect(fieldTextKey('someFutureField')).toBeNull();
  });

  it("says yes, no, on and off, profiles and assignment modes in the reader's language, not true or enabled", () => {
    const words: Record<string, string> = { 'auditLogs.values.yes': 'sim', 'auditLogs.values.no': 'não', 'auditLogs.values.enabled': 'ativado', 'auditLogs.values.disabled': 'desativado' };
    const sayFor = (field: string) => (value: string | boolean) => words[valueTextKey(field, value) ?? ''];
    expect(describeChange({ from: false, to: true }, sayFor('super'))).toEqual({ from: 'não', to: 'sim', hidden: false });
    expect(describeChange({ from: 'disabled', to: 'enabled' }, sayFor('userRating'))).toEqual({ from: 'desativado', to: 'ativado', hidden: false });
    expect(describeChange(['queue', true], sayFor('scopes'))).toEqual({ to: 'queue, sim', hidden: false });
    expect(describeChange('desabled', sayFor('allTicket'))).toEqual({ to: 'desativado', hidden: false });
    expect(valueTextKey('profile', 'admin')).toBe('userModal.profiles.admin');
    expect(valueTextKey('autoAssign', 'round_robin')).toBe('queues.autoAssign.modes.round_robin');
    // Other values, and these words in other fields, stay as they are.
    expect(valueTextKey('name', 'admin')).toBeNull();
    expect(valueTextKey('profile', 'owner')).toBeNull();
  });

  it('shows a change as before and after, a secret only as changed', () => {
    expect(describeChange({ from: 'user', to: 'admin' })).toEqual({ from: 'user', to: 'admin', hidden: false });
    expect(describeChange({ changed: true })).toEqual({ hidden: true });
    expect(describeChange(['tickets:read', 'contacts:read'])).toEqual({ to: 'tickets:read, contacts:read', hidden: false });
    expect(describeChange(null)).toEqual({ to: '—', hidden: false });
  });
});
