import { AUDIT_ACTION_NAMES, type AuditAction, type PresentedAuditLog } from '@atende/shared';
import { Box, Chip, MenuItem, Stack, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll } from '../../components/list-page-parts';
import { formatDateTime } from '../../i18n';
import { describeChange, fieldTextKey, useAuditLogPages, useAuditUsers, valueTextKey, type AuditLogFilters } from './audit-logs-queries';

/** Phones show time, action (with who and the changes under it); ip and entity from `md` up. */
const CELL = { px: { xs: 1, sm: 2 }, verticalAlign: 'top' } as const;
const WIDE_ONLY = { ...CELL, display: { xs: 'none', md: 'table-cell' } } as const;

/** i18next reads `.` as a path: the action's text key uses `_`. */
const actionText = (action: string) => `auditLogs.actions.${action.replace('.', '_')}`;

function Changes({ entry }: { entry: PresentedAuditLog }) {
  const { t } = useTranslation();
  const fields = Object.entries(entry.changes ?? {});
  if (fields.length === 0) return null;
  const sayFor = (field: string) => (value: string | boolean) => {
    const key = valueTextKey(field, value);
    return key ? t(key) : undefined;
  };
  const label = (field: string) => {
    const text = fieldTextKey(field, entry.entity);
    return text ? t(text.key, { name: text.name }) : field;
  };
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, typography: 'body2', color: 'text.secondary', wordBreak: 'break-word' }} data-testid="audit-changes">
      {fields.map(([field, value]) => {
        const change = describeChange(value, sayFor(field));
        return (
          <li key={field} data-field={field}>
            <strong>{label(field)}</strong>
            {': '}
            {change.hidden ? t('auditLogs.changedHidden') : change.from !== undefined ? `${change.from} → ${change.to ?? '—'}` : change.to}
          </li>
        );
      })}
    </Box>
  );
}

/**
 * The audit log (issue 35): who did what, when and from which address, newest first,
 * filtered by action, user and days (the company's zone). Read only: entries cannot be
 * changed. Admins only (the menu shows it to them; the server answers 403 to others).
 */
export default function AuditLogsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<AuditLogFilters>({ action: '', userId: '', from: '', to: '' });
  const pages = useAuditLogPages(filters);
  const users = useAuditUsers().data ?? [];
  const entries = pages.data?.pages.flatMap((page) => page.entries) ?? [];
  const set = <K extends keyof AuditLogFilters>(key: K, value: AuditLogFilters[K]) => setFilters((current) => ({ ...current, [key]: value }));

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('auditLogs.title')}>
        <Typography variant="body2" color="text.secondary">
          {t('auditLogs.intro')}
        </Typography>
      </ListPageHeader>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <TextField
          select
          size="small"
          label={t('auditLogs.filters.action')}
          value={filters.action}
          onChange={(event) => set('action', event.target.value as AuditAction | '')}
          sx={{ minWidth: 220 }}
          slotProps={{ htmlInput: { 'data-testid': 'audit-filter-action' } }}
        >
          <MenuItem value="">{t('auditLogs.filters.all')}</MenuItem>
          {AUDIT_ACTION_NAMES.map((action) => (
            <MenuItem key={action} value={action} data-testid={`audit-action-option-${action}`}>
              {t(actionText(action))}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('auditLogs.filters.user')}
          value={filters.userId}
          onChange={(event) => set('userId', event.target.value === '' ? '' : Number(event.target.value))}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">{t('auditLogs.filters.all')}</MenuItem>
          {users.map((user) => (
            <MenuItem key={user.id} value={user.id}>
              {user.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="date"
          label={t('auditLogs.filters.from')}
          value={filters.from}
          onChange={(event) => set('from', event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-filter-from', max: filters.to || undefined } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('auditLogs.filters.to')}
          value={filters.to}
          onChange={(event) => set('to', event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-filter-to', min: filters.from || undefined } }}
        />
      </Stack>
      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('auditLogs.title')}
        phoneOffsetPx={360}
        head={
          <>
            <TableCell sx={CELL}>{t('auditLogs.columns.time')}</TableCell>
            <TableCell sx={CELL}>{t('auditLogs.columns.action')}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t('auditLogs.columns.user')}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t('auditLogs.columns.entity')}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t('auditLogs.columns.ip')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={entries.length === 0} emptyText={t('auditLogs.empty')} emptyTestId="audit-empty" />}
      >
        {entries.map((entry) => (
          <TableRow key={entry.id} hover data-testid="audit-row" data-action={entry.action}>
            <TableCell sx={{ ...CELL, whiteSpace: 'nowrap' }}>{formatDateTime(entry.createdAt)}</TableCell>
            <TableCell sx={CELL}>
              <Chip size="small" variant="outlined" label={t(actionText(entry.action))} />
              {/* On a phone who, what and where sit under the action (their columns are hidden). */}
              <Typography variant="body2" sx={{ display: { xs: 'block', md: 'none' }, mt: 0.5 }}>
                {entry.userName ?? t('auditLogs.system')} · {entry.ip ?? '—'}
              </Typography>
              <Changes entry={entry} />
            </TableCell>
            <TableCell sx={WIDE_ONLY}>
              {entry.userName ?? t('auditLogs.system')}
              {entry.apiKeyId ? <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>{t('auditLogs.viaApiKey', { id: entry.apiKeyId })}</Typography> : null}
            </TableCell>
            <TableCell sx={WIDE_ONLY}>
              {t(`auditLogs.entities.${entry.entity}`)}
              {entry.entityId ? ` #${entry.entityId}` : ''}
            </TableCell>
            <TableCell sx={{ ...WIDE_ONLY, whiteSpace: 'nowrap' }}>
              <Tooltip title={entry.userAgent ?? ''}>
                <span>{entry.ip ?? '—'}</span>
              </Tooltip>
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
    </InfiniteListPage>
  );
}
