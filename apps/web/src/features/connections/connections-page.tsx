import { can, type PresentedConnectionDetail, type PresentedConnectionSession } from '@atende/shared';
import CropFree from '@mui/icons-material/CropFree';
import PhoneIphone from '@mui/icons-material/PhoneIphone';
import Star from '@mui/icons-material/Star';
import { Box, Button, Chip, CircularProgress, IconButton, Stack, TableCell, TableRow, Typography, useMediaQuery, useTheme } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { ItemConfirmationDialog } from '../../components/confirmation-dialog';
import { AddButton, ListPageHeader, ListTable } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { formatDateTime } from '../../i18n';
import { AddSandboxConnectionDialog } from './add-sandbox-connection-dialog';
import { ConnectionDialog } from './connection-dialog';
import { sessionButtonsFor, STATUS_COLOR, type SessionButton } from './connection-status';
import { applyConnectionEvent, applySessionEvent, connectionsKey, isSandbox, refreshConnectionAlert, useConnectionEvents, useConnections } from './connections-queries';
import { QrCodeDialog } from './qr-code-dialog';

type SessionAction = Exclude<SessionButton, 'qrcode' | 'connecting'>;
/** Spec part 2 §7: retry POST, new QR code PUT, disconnect DELETE on `/whatsappsession/:id`. */
const SESSION_METHODS: Record<SessionAction, 'POST' | 'PUT' | 'DELETE'> = { retry: 'POST', newQr: 'PUT', disconnect: 'DELETE' };

/**
 * Connections page (spec part 2 §2.2): the table with each connection's
 * status and session buttons, live from `company-{id}-whatsapp` and
 * `-whatsappSession`; add, edit and delete gated by the `connections-page:*`
 * rules; the QR dialog; and test (sandbox) connections with their phone.
 */
export default function ConnectionsPage() {
  const { t, i18n } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const connections = useConnections();
  const [addingSandbox, setAddingSandbox] = useState(false);
  const editor = useEditDialog<number>();
  const deletion = useDeleteConfirmation<PresentedConnectionDetail>({
    path: (connection) => `/whatsapp/${connection.id}`,
    onDeleted: (connection) => {
      queryClient.setQueryData<PresentedConnectionDetail[]>(connectionsKey, (current) => (current ? applyConnectionEvent(current, { action: 'delete', whatsappId: connection.id }) : current));
      // Another connection may have become the default.
      void queryClient.invalidateQueries({ queryKey: connectionsKey });
      refreshConnectionAlert(queryClient);
      toastSuccess(t('connections.deleted'));
    },
    title: (connection) => t('connections.deleteTitle', { name: connection?.name ?? '' }),
    message: t('connections.deleteMessage'),
  });
  const [disconnecting, setDisconnecting] = useState<PresentedConnectionDetail | null>(null);
  const [qrFor, setQrFor] = useState<PresentedConnectionDetail | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  useConnectionEvents();

  const mayAdd = user ? can(user, 'connections-page:addConnection') : false;
  const mayEdit = user ? can(user, 'connections-page:editOrDeleteConnection') : false;
  const maySession = user ? can(user, 'connections-page:actionButtons') : false;
  // The simulated phone's routes are for admins, like the session buttons.
  const mayUsePhone = maySession;
  const list = connections.data ?? [];
  const showActions = mayEdit || (mayUsePhone && list.some(isSandbox));
  const closeQr = useCallback(() => setQrFor(null), []);
  // A phone (under 600 px) gets two columns: the connection with its status and session buttons, and the actions.
  const narrow = useMediaQuery(useTheme().breakpoints.down('sm'));

  const runSession = async (connection: PresentedConnectionDetail, action: SessionAction) => {
    setBusy(connection.id);
    try {
      const { session } = await api.request<{ message: string; session: PresentedConnectionSession }>(SESSION_METHODS[action], `/whatsappsession/${connection.id}`);
      queryClient.setQueryData<PresentedConnectionDetail[]>(connectionsKey, (current) => (current ? applySessionEvent(current, session) : current));
      refreshConnectionAlert(queryClient);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(null);
    }
  };

  const label = (group: 'statuses' | 'providers', value: string) => (i18n.exists(`connections.${group}.${value}`) ? t(`connections.${group}.${value}`) : value);

  const sessionButton = (connection: PresentedConnectionDetail, button: SessionButton) => {
    const common = { size: 'small' as const, disabled: busy === connection.id, sx: { whiteSpace: 'nowrap' } };
    switch (button) {
      case 'qrcode':
        return (
          <Button key={button} {...common} variant="contained" startIcon={<CropFree />} onClick={() => setQrFor(connection)} data-testid="connection-qr">
            {t('connections.session.qrcode')}
          </Button>
        );
      case 'retry':
        return (
          <Button key={button} {...common} variant="outlined" onClick={() => void runSession(connection, 'retry')} data-testid="connection-retry">
            {t('connections.session.retry')}
          </Button>
        );
      case 'newQr':
        return (
          <Button key={button} {...common} variant="contained" onClick={() => void runSession(connection, 'newQr')} data-testid="connection-new-qr">
            {t('connections.session.newQr')}
          </Button>
        );
      case 'disconnect':
        return (
          <Button key={button} {...common} variant="outlined" color="error" onClick={() => setDisconnecting(connection)} data-testid="connection-disconnect">
            {t('connections.session.disconnect')}
          </Button>
        );
      case 'connecting':
        return (
          <Button key={button} {...common} variant="outlined" disabled startIcon={<CircularProgress size={14} color="inherit" />} data-testid="connection-connecting">
            {t('connections.session.connecting')}
          </Button>
        );
    }
  };

  const problemText = (connection: PresentedConnectionDetail) => {
    const problem = connection.problem;
    if (!problem) return null;
    const reason = i18n.exists(`errors.${problem.code}`) ? t(`errors.${problem.code}`) : problem.code;
    return problem.detail ? `${reason} (${problem.detail})` : reason;
  };
  const statusChip = (connection: PresentedConnectionDetail) => {
    const problem = problemText(connection);
    return (
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Chip size="small" color={STATUS_COLOR[connection.status] ?? 'default'} label={label('statuses', connection.status)} data-testid="connection-status" />
        {problem ? (
          <Typography variant="caption" color="error" data-testid="connection-problem" sx={{ maxWidth: 280, wordBreak: 'break-word' }}>
            {problem}
          </Typography>
        ) : null}
      </Stack>
    );
  };
  const sessionButtons = (connection: PresentedConnectionDetail) =>
    maySession ? (
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }} data-testid="connection-session">
        {sessionButtonsFor(connection.status).map((button) => sessionButton(connection, button))}
      </Stack>
    ) : null;
  const defaultStar = (connection: PresentedConnectionDetail) =>
    connection.isDefault ? (
      <Tooltip title={t('connections.isDefault')}>
        <Star color="warning" fontSize="small" aria-label={t('connections.isDefault')} data-testid="connection-default" />
      </Tooltip>
    ) : null;

  return (
    <Stack spacing={2}>
      <ListPageHeader title={t('connections.title')}>
        {mayAdd ? (
          <>
            <Button variant="outlined" startIcon={<PhoneIphone />} onClick={() => setAddingSandbox(true)} data-testid="connection-add-sandbox">
              {t('connections.addSandbox')}
            </Button>
            <AddButton label={t('connections.add')} onClick={editor.add} testId="connection-add" />
          </>
        ) : null}
      </ListPageHeader>

      <ListTable
        head={
          <>
            <TableCell>{t('connections.columns.name')}</TableCell>
            {narrow ? null : (
              <>
                <TableCell>{t('connections.columns.status')}</TableCell>
                {maySession ? <TableCell>{t('connections.columns.session')}</TableCell> : null}
                <TableCell>{t('connections.columns.provider')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('connections.columns.updatedAt')}</TableCell>
                <TableCell align="center">{t('connections.columns.isDefault')}</TableCell>
              </>
            )}
            {showActions ? <TableCell align="right">{t('connections.columns.actions')}</TableCell> : null}
          </>
        }
        footer={
          <>
            {connections.isPending ? (
              <Box role="status" aria-label={t('common.loading')} sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
                <CircularProgress size={28} />
              </Box>
            ) : null}
            {!connections.isPending && list.length === 0 ? (
              <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="connections-empty">
                {t('connections.empty')}
              </Typography>
            ) : null}
          </>
        }
      >
        {list.map((connection) => (
          <TableRow key={connection.id} hover data-testid="connection-row" data-connection-id={connection.id} data-status={connection.status}>
            {narrow ? (
              <TableCell sx={{ wordBreak: 'break-word' }}>
                <Stack spacing={1}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Typography variant="body2" sx={{ fontWeight: 500, minWidth: 0 }}>
                      {connection.name}
                    </Typography>
                    {defaultStar(connection)}
                  </Stack>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                    {statusChip(connection)}
                    <Typography variant="caption" color="text.secondary">
                      {label('providers', connection.provider)}
                    </Typography>
                  </Stack>
                  {sessionButtons(connection)}
                </Stack>
              </TableCell>
            ) : (
              <>
                <TableCell sx={{ wordBreak: 'break-word' }}>{connection.name}</TableCell>
                <TableCell>{statusChip(connection)}</TableCell>
                {maySession ? <TableCell>{sessionButtons(connection)}</TableCell> : null}
                <TableCell>{label('providers', connection.provider)}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }} data-testid="connection-updated-at">
                  {formatDateTime(connection.updatedAt)}
                </TableCell>
                <TableCell align="center">{defaultStar(connection)}</TableCell>
              </>
            )}
            {showActions ? (
              <RowActionsCell
                testIdPrefix="connection"
                onEdit={mayEdit ? () => editor.edit(connection.id) : undefined}
                onDelete={mayEdit ? () => deletion.ask(connection) : undefined}
              >
                {mayUsePhone && isSandbox(connection) ? (
                  <Tooltip title={t('connections.openPhone')}>
                    <IconButton size="small" aria-label={t('connections.openPhone')} onClick={() => void navigate(`/phone/${connection.id}`)} data-testid="connection-open-phone">
                      <PhoneIphone fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : null}
              </RowActionsCell>
            ) : null}
          </TableRow>
        ))}
      </ListTable>

      {addingSandbox ? <AddSandboxConnectionDialog onClose={() => setAddingSandbox(false)} /> : null}
      {editor.open ? <ConnectionDialog connectionId={editor.record} onClose={editor.close} /> : null}
      {qrFor ? <QrCodeDialog connection={qrFor} onClose={closeQr} /> : null}
      {deletion.dialog}
      <ItemConfirmationDialog
        item={disconnecting}
        title={t('connections.session.disconnectTitle', { name: disconnecting?.name ?? '' })}
        onClose={() => setDisconnecting(null)}
        onConfirm={(target) => void runSession(target, 'disconnect')}
      >
        {t('connections.session.disconnectMessage')}
      </ItemConfirmationDialog>
    </Stack>
  );
}
