import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config.js';
import type { Platform } from '../../platform/platform.js';
import { createEfiPixProvider } from '../../platform/payments/efi-pix.provider.js';
import { registerFakePsp } from '../../platform/payments/fake-psp.js';
import type { PaymentProvider } from '../../platform/payments/payment-provider.js';

/** Where the local fake PSP is mounted (PIX_PROVIDER=fake). */
const FAKE_PSP_PREFIX = '/fake-psp';
const FAKE_CLIENT_ID = 'atende-fake-psp';
const FAKE_PIX_KEY = 'pix@atende.local';

/** The webhook path the PSP is given; the secret in it is the first credential, the charge fetched back the second. */
export const PIX_WEBHOOK_PATH = '/payments/pix/webhook';

type PaymentsConfig = Pick<
  Config,
  'PIX_PROVIDER' | 'PAYMENT_WEBHOOK_SECRET' | 'PUBLIC_URL' | 'EFI_BASE_URL' | 'EFI_CLIENT_ID' | 'EFI_CLIENT_SECRET' | 'PIX_KEY' | 'EFI_CERT_PATH' | 'EFI_CERT_PASSPHRASE'
>;

/**
 * One app's Pix payments (the composition root makes it): the server its routes are
 * on (the fake PSP and its webhook live there) and the provider built on first use.
 */
export interface Payments {
  /** The server this app's routes listen on, once they are registered. */
  attach(server: FastifyInstance): void;
  /**
   * The configured Pix provider, built on first use (the webhook is registered then);
   * null when payments are off, or the fake PSP's server is not listening yet. A
   * failed build is tried again on the next use.
   */
  provider(): Promise<PaymentProvider | null>;
}

function fakeSecret(config: Pick<Config, 'PAYMENT_WEBHOOK_SECRET'>): string {
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
      return `  Payments: test payments on (PIX_PROVIDER=fake): the test PSP at ${FAKE_PSP_PREFIX} marks any invoice paid for free, no money moves; never with real customers`;
    case 'efi':
      return `  Payments: Pix through Efí's API Pix (${config.EFI_BASE_URL})`;
    case 'none':
      return '  Payments: not configured (PIX_PROVIDER unset): invoices cannot be paid (docs/operations.md, Billing)';
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
}

async function buildProvider(config: PaymentsConfig, server: FastifyInstance | null): Promise<PaymentProvider | null> {
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

export function createPayments(config: PaymentsConfig): Payments {
  let server: FastifyInstance | null = null;
  let building: Promise<PaymentProvider | null> | null = null;
  return {
    attach(scope) {
      server = scope;
    },
    async provider() {
      building ??= buildProvider(config, server).catch(() => null);
      const provider = await building;
      if (!provider) building = null;
      return provider;
    },
  };
}
