import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { PaymentMethod } from '@atende/shared';
import type { Config } from '../../platform/config.js';
import type { Platform } from '../../platform/platform.js';
import { createAsaasProvider, type AsaasProvider } from '../../platform/payments/asaas.provider.js';
import { createEfiPixProvider } from '../../platform/payments/efi-pix.provider.js';
import { registerFakeAsaas } from '../../platform/payments/fake-asaas.js';
import { registerFakePsp } from '../../platform/payments/fake-psp.js';
import type { PaymentProvider } from '../../platform/payments/payment-provider.js';
import { findSetting } from '../settings/settings.repo.js';
import { openSecretSetting } from '../settings/settings.presenter.js';

/** Where the local fake PSP is mounted (PIX_PROVIDER=fake). */
const FAKE_PSP_PREFIX = '/fake-psp';
/** Where the local fake Asaas is mounted (PIX_PROVIDER=fake); its API is at /fake-asaas/v3. */
const FAKE_ASAAS_PREFIX = '/fake-asaas';
export const FAKE_CLIENT_ID = 'atende-fake-psp';
const FAKE_PIX_KEY = 'pix@atende.local';

/** The webhook path the PSP is given; the secret in it is the first credential, the charge fetched back the second. */
export const PIX_WEBHOOK_PATH = '/payments/pix/webhook';
/** Asaas's webhook: authenticated by the `asaas-access-token` header (`asaasWebhookToken`), each payment fetched back. */
export const ASAAS_WEBHOOK_PATH = '/payments/asaas/webhook';

type PaymentsConfig = Pick<
  Config,
  | 'PIX_PROVIDER'
  | 'PAYMENT_WEBHOOK_SECRET'
  | 'PUBLIC_URL'
  | 'EFI_BASE_URL'
  | 'EFI_CLIENT_ID'
  | 'EFI_CLIENT_SECRET'
  | 'PIX_KEY'
  | 'EFI_CERT_PATH'
  | 'EFI_CERT_PASSPHRASE'
  | 'ASAAS_BASE_URL'
  | 'ADMIN_EMAIL'
>;

/** The provider in use: a Pix PSP in Efí's API shape (Efí or the fake PSP), or Asaas. */
type ActiveProvider = { kind: 'pix'; pix: PaymentProvider; methods: readonly PaymentMethod[] } | { kind: 'asaas'; asaas: AsaasProvider; methods: readonly PaymentMethod[] };

/**
 * The token Asaas sends in `asaas-access-token` with every event (given to it when the
 * webhook is registered): derived from PAYMENT_WEBHOOK_SECRET, 43 characters (Asaas: 32 to 255).
 */
export function asaasWebhookToken(config: Pick<Config, 'PAYMENT_WEBHOOK_SECRET'>): string {
  return createHmac('sha256', config.PAYMENT_WEBHOOK_SECRET).update('asaas-webhook').digest('base64url');
}

/**
 * One app's Pix payments (the composition root makes it): the server its routes are
 * on (the fake PSP and its webhook live there) and the provider built on first use.
 */
export interface Payments {
  /** The server this app's routes listen on, once they are registered. */
  attach(server: FastifyInstance): void;
  /**
   * The provider in use: Asaas while the platform setting `asaas` holds an API key, else
   * the PIX_PROVIDER one. Built on first use (its webhook registered then) and again
   * when the key changes; null when payments are off, or a fake's server is not
   * listening yet. A failed build is tried again on the next use.
   */
  provider(): Promise<ActiveProvider | null>;
  /** What can be paid with now, without building anything (GET /subscription): empty when payments are off. */
  methods(): Promise<PaymentMethod[]>;
}

export function fakeSecret(config: Pick<Config, 'PAYMENT_WEBHOOK_SECRET'>): string {
  return `${config.PAYMENT_WEBHOOK_SECRET}-psp`;
}

/** This server's own address once it listens (the fake PSP and its webhook live here). */
function ownAddress(server: FastifyInstance | null): string | null {
  const address = server?.server.address() as AddressInfo | string | null | undefined;
  if (!address || typeof address === 'string') return null;
  const host = address.family === 'IPv6' ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * The start banner's line about payments (main.ts). The test PSP pays any invoice for
 * free, so whoever starts the server is told when it is on.
 */
export function paymentsBannerLine(config: Pick<Config, 'PIX_PROVIDER' | 'EFI_BASE_URL'>): string {
  switch (config.PIX_PROVIDER) {
    case 'fake':
      return `  Payments: test payments on (PIX_PROVIDER=fake): the test PSPs at ${FAKE_PSP_PREFIX} and ${FAKE_ASAAS_PREFIX} mark any invoice paid for free, no money moves; never with real customers`;
    case 'efi':
      return `  Payments: Pix through Efí's API Pix (${config.EFI_BASE_URL})`;
    case 'none':
      return '  Payments: Pix not configured (PIX_PROVIDER unset): invoices can be paid only once the platform setting `asaas` holds an Asaas API key (docs/operations.md, Billing)';
  }
}

/** Mounts the test PSP on this server when it is the configured provider (PIX_PROVIDER=fake, named explicitly). */
export async function registerPaymentRoutes(scope: FastifyInstance, deps: Pick<Platform, 'config'> & { payments: Payments }): Promise<void> {
  deps.payments.attach(scope);
  if (deps.config.PIX_PROVIDER !== 'fake') return;
  await registerFakePsp(scope, {
    prefix: FAKE_PSP_PREFIX,
    clientId: FAKE_CLIENT_ID,
    clientSecret: fakeSecret(deps.config),
    merchantName: 'Atende',
    merchantCity: 'Sao Paulo',
  });
  await registerFakeAsaas(scope, { prefix: FAKE_ASAAS_PREFIX, merchantName: 'Atende', merchantCity: 'Sao Paulo' });
}

async function buildPixProvider(config: PaymentsConfig, server: FastifyInstance | null): Promise<PaymentProvider | null> {
  if (config.PIX_PROVIDER === 'none') return null;
  let provider: PaymentProvider;
  let base: string;
  if (config.PIX_PROVIDER === 'fake') {
    const own = ownAddress(server);
    if (!own) return null;
    base = own;
    provider = createEfiPixProvider({ baseUrl: `${own}${FAKE_PSP_PREFIX}`, clientId: FAKE_CLIENT_ID, clientSecret: fakeSecret(config), pixKey: FAKE_PIX_KEY, kind: 'fake' });
  } else {
    base = config.PUBLIC_URL;
    provider = createEfiPixProvider({
      baseUrl: config.EFI_BASE_URL,
      clientId: config.EFI_CLIENT_ID,
      clientSecret: config.EFI_CLIENT_SECRET,
      pixKey: config.PIX_KEY,
      kind: 'efi',
      tls: { pfx: readFileSync(config.EFI_CERT_PATH), passphrase: config.EFI_CERT_PASSPHRASE },
    });
  }
  await provider.registerWebhook(`${base}${PIX_WEBHOOK_PATH}/${config.PAYMENT_WEBHOOK_SECRET}`);
  return provider;
}

/**
 * Asaas with the platform's API key. With PIX_PROVIDER=fake, events come back to this
 * server's own address and a base URL on it is the local fake (sandbox: nothing is paid);
 * otherwise PUBLIC_URL is what Asaas reaches.
 */
async function buildAsaasProvider(config: PaymentsConfig, server: FastifyInstance | null, apiKey: string): Promise<AsaasProvider | null> {
  const own = ownAddress(server);
  const base = config.PIX_PROVIDER === 'fake' ? own : config.PUBLIC_URL;
  if (!base) return null;
  const sandbox = config.PIX_PROVIDER === 'fake' && own !== null && config.ASAAS_BASE_URL.startsWith(`${own}${FAKE_ASAAS_PREFIX}`);
  const provider = createAsaasProvider({ baseUrl: config.ASAAS_BASE_URL, apiKey, sandbox });
  await provider.registerWebhook({ url: `${base}${ASAAS_WEBHOOK_PATH}`, authToken: asaasWebhookToken(config), email: config.ADMIN_EMAIL });
  return provider;
}

const PIX_ONLY: readonly PaymentMethod[] = ['PIX'];

/** `mainCompanyId`: the company whose settings are the platform's (the composition root names it; importing it here would make a cycle). */
export function createPayments(config: PaymentsConfig, deps: Pick<Platform, 'db' | 'secrets'> & { mainCompanyId: number }): Payments {
  let server: FastifyInstance | null = null;
  let pix: Promise<PaymentProvider | null> | null = null;
  let asaas: { key: string; building: Promise<AsaasProvider | null> } | null = null;

  /** The platform's Asaas API key (the main company's secret setting `asaas`), '' when none. */
  async function asaasKey(): Promise<string> {
    const stored = (await findSetting(deps.db, { companyId: deps.mainCompanyId }, 'asaas'))?.value ?? '';
    return openSecretSetting(stored, deps.secrets).trim();
  }

  return {
    attach(scope) {
      server = scope;
    },
    async provider() {
      const key = await asaasKey();
      if (key) {
        if (asaas?.key !== key) asaas = { key, building: buildAsaasProvider(config, server, key).catch(() => null) };
        const built = await asaas.building;
        if (!built) asaas = null;
        return built ? { kind: 'asaas', asaas: built, methods: built.methods } : null;
      }
      pix ??= buildPixProvider(config, server).catch(() => null);
      const built = await pix;
      if (!built) pix = null;
      return built ? { kind: 'pix', pix: built, methods: PIX_ONLY } : null;
    },
    async methods() {
      if (await asaasKey()) return ['PIX', 'BOLETO', 'CREDIT_CARD'];
      return config.PIX_PROVIDER === 'none' ? [] : ['PIX'];
    },
  };
}
