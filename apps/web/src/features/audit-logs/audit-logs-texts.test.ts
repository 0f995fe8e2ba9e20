import { AUDIT_ACTION_NAMES, AUDIT_ENTITIES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { auditLogsTexts } from './audit-logs.i18n';
import { describeChange } from './audit-logs-queries';

describe('the audit log page', () => {
  it('names every action and entity the server records, in pt, en and es', () => {
    for (const texts of [auditLogsTexts.pt, auditLogsTexts.en, auditLogsTexts.es]) {
      for (const action of AUDIT_ACTION_NAMES) expect(texts.actions[action.replace('.', '_') as keyof typeof texts.actions], action).toBeTruthy();
      for (const entity of AUDIT_ENTITIES) expect(texts.entities[entity], entity).toBeTruthy();
    }
  });

  it('shows a change as before and after, a secret only as changed', () => {
    expect(describeChange({ from: 'user', to: 'admin' })).toEqual({ from: 'user', to: 'admin', hidden: false });
    expect(describeChange({ changed: true })).toEqual({ hidden: true });
    expect(describeChange(['tickets:read', 'contacts:read'])).toEqual({ to: 'tickets:read, contacts:read', hidden: false });
    expect(describeChange(null)).toEqual({ to: '—', hidden: false });
  });
});
