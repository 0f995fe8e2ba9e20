import { can } from '@atende/shared';
import AddCircleOutlined from '@mui/icons-material/AddCircleOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { Alert, Autocomplete, Box, Button, CircularProgress, Link, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';
import { createSandboxConnection } from '../connections/add-sandbox-connection-dialog';
import { isSandbox, useConnectionEvents, useConnections } from '../connections/connections-queries';
import { PhoneChat } from './phone-chat';
import { isValidPhoneNumber, normalizePhoneNumber, rememberCustomer, type SandboxCustomer } from './phone-number';

/** Customers played recently in this browser, so a tester can switch between a few "phones". */
const RECENT_KEY = 'sandboxCustomers';
const DEFAULT_NUMBER = '5511999990001';

/** The customer last played on one test phone, kept across reloads. */
const customerKey = (whatsappId: number) => `sandboxCustomer:${whatsappId}`;

function loadCustomer(whatsappId: number | null): SandboxCustomer | null {
  if (whatsappId === null) return null;
  try {
    const parsed = JSON.parse(localStorage.getItem(customerKey(whatsappId)) ?? 'null') as Partial<SandboxCustomer> | null;
    return parsed && typeof parsed.number === 'string' && typeof parsed.name === 'string' ? { number: parsed.number, name: parsed.name } : null;
  } catch {
    return null;
  }
}

function loadRecent(): SandboxCustomer[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as SandboxCustomer[]).filter((c) => typeof c.number === 'string' && typeof c.name === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The test phone (`/phone/:whatsappId?`): how a new user tries Atende in one
 * minute. Pick a sandbox connection and a customer, then write as the customer;
 * the replies from the ticket screen show up here.
 */
export default function SandboxPhonePage() {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { whatsappId: param } = useParams();
  const [searchParams] = useSearchParams();
  const connections = useConnections();
  useConnectionEvents();
  const [recent, setRecent] = useState(loadRecent);
  const paramId = param ? Number(param) : null;
  const [number, setNumber] = useState(() => searchParams.get('number') ?? loadCustomer(paramId)?.number ?? recent[0]?.number ?? DEFAULT_NUMBER);
  const [name, setName] = useState(() => searchParams.get('name') ?? loadCustomer(paramId)?.name ?? recent[0]?.name ?? t('sandbox.defaultCustomer'));
  // Switching phones brings back the customer last played on that phone.
  const [customerFor, setCustomerFor] = useState(paramId);
  if (customerFor !== paramId) {
    setCustomerFor(paramId);
    const stored = loadCustomer(paramId);
    if (stored && !searchParams.get('number')) {
      setNumber(stored.number);
      setName(stored.name);
    }
  }
  useEffect(() => {
    if (paramId !== null) localStorage.setItem(customerKey(paramId), JSON.stringify({ number, name }));
  }, [paramId, number, name]);
  const [creating, setCreating] = useState(false);
  const admin = user ? can(user, 'connections-page:actionButtons') : false;

  const sandboxes = (connections.data ?? []).filter(isSandbox);
  const selectedId = paramId;
  const selected = sandboxes.find((c) => c.id === selectedId) ?? null;
  const firstId = sandboxes[0]?.id;

  // Without a connection in the address, open the first test phone.
  useEffect(() => {
    if (!param && firstId !== undefined) void navigate(`/phone/${firstId}${location.search}`, { replace: true });
  }, [param, firstId, navigate, location.search]);

  const numberValid = isValidPhoneNumber(number);
  const customer: SandboxCustomer | null = numberValid ? { number: normalizePhoneNumber(number), name } : null;

  const createConnection = async () => {
    setCreating(true);
    try {
      const created = await createSandboxConnection(api, queryClient, t('connections.sandboxDialog.defaultName'));
      toastSuccess(t('connections.saved'));
      void navigate(`/phone/${created.id}${location.search}`);
    } catch (error) {
      toastError(error);
    } finally {
      setCreating(false);
    }
  };

  const remember = (sent: SandboxCustomer) => {
    const next = rememberCustomer(recent, sent);
    setRecent(next);
    localStorage.setItem(RECENT_KEY, JSON.stringify(next));
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 960, mx: 'auto' }}>
      <Typography variant="h5" component="h1">
        {t('sandbox.title')}
      </Typography>
      <Alert severity="info" data-testid="phone-intro">
        {t('sandbox.intro')}{' '}
        <Link href="/tickets" target="_blank" rel="noopener" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25 }}>
          {t('sandbox.openTickets')}
          <OpenInNew sx={{ fontSize: 14 }} />
        </Link>
      </Alert>

      {!admin ? (
        <Alert severity="warning" data-testid="phone-admin-only">
          {t('sandbox.adminOnly')}
        </Alert>
      ) : connections.isPending ? (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Box>
      ) : sandboxes.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
          <Typography sx={{ mb: 2 }}>{t('sandbox.noConnection')}</Typography>
          <Button
            variant="contained"
            startIcon={creating ? <CircularProgress size={18} /> : <AddCircleOutlined />}
            disabled={creating}
            onClick={() => void createConnection()}
            data-testid="phone-create-connection"
          >
            {t('sandbox.createConnection')}
          </Button>
        </Paper>
      ) : (
        <>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <TextField
                select
                label={t('sandbox.connection')}
                value={selected ? selected.id : ''}
                onChange={(event) => void navigate(`/phone/${event.target.value}${location.search}`)}
                error={param !== undefined && !selected}
                helperText={param !== undefined && !selected ? t('sandbox.connectionNotFound') : undefined}
                sx={{ minWidth: 220 }}
                slotProps={{ htmlInput: { 'data-testid': 'phone-connection' } }}
              >
                {sandboxes.map((connection) => (
                  <MenuItem key={connection.id} value={connection.id}>
                    {connection.name}
                  </MenuItem>
                ))}
              </TextField>
              <Autocomplete
                freeSolo
                options={recent}
                getOptionLabel={(option) => (typeof option === 'string' ? option : option.number)}
                renderOption={(props, option) => {
                  const { key, ...rest } = props;
                  return (
                    <li key={key} {...rest}>
                      <Box>
                        <Typography variant="body2">{option.name}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {option.number}
                        </Typography>
                      </Box>
                    </li>
                  );
                }}
                inputValue={number}
                onInputChange={(_, value) => setNumber(value)}
                onChange={(_, value) => {
                  if (value && typeof value !== 'string') {
                    setNumber(value.number);
                    setName(value.name);
                  }
                }}
                sx={{ flex: 1, minWidth: 200 }}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label={t('sandbox.number')}
                    error={!numberValid}
                    helperText={numberValid ? t('sandbox.numberHint') : t('validation.invalidNumber')}
                    slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, inputMode: 'tel', 'data-testid': 'phone-number' } }}
                  />
                )}
              />
              <TextField
                label={t('sandbox.name')}
                value={name}
                onChange={(event) => setName(event.target.value)}
                sx={{ flex: 1, minWidth: 180 }}
                slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'phone-name' } }}
              />
            </Stack>
          </Paper>
          {selected ? <PhoneChat connection={selected} customer={customer} onSent={remember} /> : null}
        </>
      )}
    </Stack>
  );
}
