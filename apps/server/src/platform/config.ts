import { createECDH, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseAllowEntry, splitAllowList } from './http/outbound.js';
import { parseTrustProxy } from './http/trust-proxy.js';

const port = z.coerce.number().int().min(0).max(65_535);
const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.test(v), { message: `must start with ${protocols.source.replace(/[\\^()]/g, '')}` });

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(8080),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  /**
   * Below this much free space in DATA_DIR (MB) the server does not start, /health is not ok and
   * files are refused (507 ERR_STORAGE_FULL), keeping room for the database; 0 turns the checks off.
   */
  DATA_DIR_MIN_FREE_MB: z.coerce.number().int().min(0).default(50),
  DATABASE_URL: optionalUrl(/^(postgres|postgresql):\/\//),
  REDIS_URL: optionalUrl(/^(redis|rediss):\/\//),
  /** Prefix of this install's Redis keys and channels (two installs may share one Redis). */
  REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w.-]{1,64}$/, 'letters, digits, "_", "-" and "." only')
    .default('atende'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_REFRESH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Encrypts secrets stored in the database (channel access tokens, AI keys, integration credentials). */
  ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email().default('admin@admin.com'),
  ADMIN_PASSWORD: z.string().min(5, 'must be at least 5 characters').max(50).optional(),
  /**
   * Web Push's VAPID key (RFC 8292): the P-256 private key, 32 bytes in base64url. Unset: generated
   * into DATA_DIR/secrets.json (embedded) or derived from ENCRYPTION_KEY (production), so every
   * node signs with the key the browsers subscribed to.
   */
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || isVapidPrivateKey(v), { message: 'must be a P-256 private key: 32 bytes in base64url (43 characters)' }),
  /** Who push services may contact about this server's pushes: a mailto: or https: URL; default mailto:ADMIN_EMAIL. */
  VAPID_SUBJECT: optionalUrl(/^(mailto:|https:\/\/)/),
  /** Comma-separated origins allowed by CORS; the web app served by this server needs none. */
  WEB_ORIGIN: z.string().default(''),
  WEB_DIST_DIR: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /**
   * A connection's request headers must be complete this many seconds after it opened (or after the
   * first byte of its next request): a socket that sends nothing, or half a header, is closed (408).
   */
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** A whole request, body included, must arrive within this many seconds (room for 16 MiB on a slow link); 0: no limit. */
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** An idle keep-alive connection is closed after this many seconds (above common proxies' 60 s, so they close first). */
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(72),
  /**
   * Simultaneous connections (HTTP and WebSocket) per client address, an IPv6 /64 counting as one;
   * one more is closed at once. 0: no cap. Behind a reverse proxy every client has the proxy's address.
   */
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).default(2000),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(7 * 24 * 3600),
  /**
   * Whose X-Forwarded-For is believed: unset (nobody, in every NODE_ENV) or the proxies'
   * addresses and CIDR blocks, comma-separated (platform/http/trust-proxy.ts).
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if ('value' in parsed) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  /** FAILED logins per client address and window (successes count nothing): sized for a call centre behind one address. */
  LOGIN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(100),
  /** Failed logins per (email, address) pair, and per device cookie, and window; the name is kept from when it counted per email alone. */
  LOGIN_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  /** Requests per company API key and minute, counted in the database (429 with Retry-After beyond). */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Days an audit log entry is kept; a daily sweep deletes older ones (issue 35). */
  AUDIT_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  LOGIN_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
  /** An account's failed logins (from anywhere but its own devices) after which each attempt waits 1 s, 2 s, 4 s... */
  LOGIN_LOCKOUT_AFTER: z.coerce.number().int().min(1).default(5),
  /** The longest of those waits, in seconds. */
  LOGIN_LOCKOUT_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /**
   * Work a node began and did not finish (an outgoing message never settled, a bot's
   * turn) belongs to a stopped node after this long: a worker takes it over, in seconds.
   * A bot turn still to be decided is taken over after 30 s at most.
   */
  RECOVERY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** How often the worker retries jobs whose lease ran out (a node died while running them), in seconds. */
  JOBS_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Outbound engine (schedules, campaigns): a send claimed this long ago and never
   * settled belongs to a node that stopped; it is re-checked (docs/architecture.md).
   */
  OUTBOUND_CLAIM_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(90),
  /**
   * Event webhooks: the longest wait between two attempts of a delivery (the backoff doubles
   * from 10 s up to it; retried for 24 h whatever it is), in seconds.
   */
  WEBHOOK_MAX_RETRY_SECONDS: z.coerce.number().int().min(10).max(3600).default(3600),
  /** How often the worker looks for due sends and schedules, in seconds. */
  OUTBOUND_SWEEP_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  /** A schedule whose time passed longer ago than this (server down) is marked ERRO instead of sent, in hours. */
  SCHEDULE_OVERDUE_LIMIT_HOURS: z.coerce.number().min(0).max(24 * 365).default(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Turns `GET /metrics` (Prometheus) on: answered only with `Authorization: Bearer <METRICS_TOKEN>`.
   * Unset or empty: no metrics are kept and the route answers 404 (docs/operations.md, "Metrics").
   */
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || /^[\x21-\x7e]{16,512}$/.test(v), { message: 'must be 16 to 512 visible ASCII characters, no spaces' }),
  /**
   * A port of its own for `GET /metrics` (needs METRICS_TOKEN), on every node: how a node
   * without the `api` service (which listens on no PORT) is scraped. Unset: PORT only.
   */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), port.optional()),
  /** Peers we call; overridable so tests and air-gapped installs can point them at local servers. */
  GRAPH_API_BASE_URL: z.url().default('https://graph.facebook.com/v21.0'),
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  DIALOGFLOW_BASE_URL: z.url().default('https://dialogflow.googleapis.com'),
  /**
   * Comma-separated addresses, CIDR blocks or host names that tenant-configured URLs
   * (integrations) may reach although they are loopback, private or link-local
   * (a self-hosted n8n on the private network). Empty: none.
   */
  OUTBOUND_ALLOW_PRIVATE: z
    .string()
    .default('')
    .refine((value) => splitAllowList(value).every((entry) => parseAllowEntry(entry) !== null), {
      message: 'each entry must be an IP address, a CIDR block (10.0.0.0/8, fd00::/8) or a host name',
    }),
  /** WhatsApp Web's WebSocket endpoint for Baileys (tests point it at a local server). */
  WA_WEBSOCKET_URL: optionalUrl(/^(ws|wss):\/\//),
  /** The address browsers and peers (the PSP's webhook) reach this server at; default http://HOST:PORT. */
  PUBLIC_URL: optionalUrl(/^https?:\/\//),
  /** Outgoing e-mail (sign-up login, password reset codes): smtp://user:pass@host:587 or smtps://...; unset: no e-mail. */
  SMTP_URL: optionalUrl(/^smtps?:\/\//),
  MAIL_FROM: z.string().trim().min(3).default('Atende <no-reply@atende.local>'),
  /** Public sign-ups per IP address and hour. */
  SIGNUP_LIMIT_PER_IP: z.coerce.number().int().min(1).default(5),
  /** Password reset requests per IP address and hour (codes sent; attempts per code are capped apart). */
  PASSWORD_RESET_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
  /** Reset codes issued per account (e-mail) and hour, whatever the address asking. */
  PASSWORD_RESET_CODES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  /** Reset tries per account (e-mail) and hour, across all its codes, whatever the address. */
  PASSWORD_RESET_TRIES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  /** A company's invoice is made this many days before its due date. */
  INVOICE_DAYS_BEFORE_DUE: z.coerce.number().int().min(0).max(60).default(10),
  /**
   * Pix charges: `efi` (a PSP with Efí's API Pix), `fake` (the local test PSP this server
   * mounts at /fake-psp, whose "test bank" pays any invoice for free: only when named
   * here) or `none`. Default: none, whatever NODE_ENV says (docs/operations.md).
   */
  PIX_PROVIDER: z.enum(['efi', 'fake', 'none']).optional(),
  EFI_BASE_URL: z.url().default('https://pix.api.efipay.com.br'),
  EFI_CLIENT_ID: z.string().trim().default(''),
  EFI_CLIENT_SECRET: z.string().trim().default(''),
  /** The PSP's client certificate for mutual TLS: a .p12 file (Efí gives one per application). */
  EFI_CERT_PATH: z.string().trim().default(''),
  EFI_CERT_PASSPHRASE: z.string().default(''),
  /** The receiving Pix key of the platform's account at the PSP. */
  PIX_KEY: z.string().trim().default(''),
  /** Part of the webhook URL given to the PSP; derived from ENCRYPTION_KEY when unset. */
  PAYMENT_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PIX_CHARGE_EXPIRES_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(3600),
  /**
   * Where media files are kept: `local` (DATA_DIR/media, one machine or a shared folder) or
   * `s3` (an S3-compatible bucket, for installs with more than one machine; S3_BUCKET and
   * the keys are then required). docs/operations.md, "Media on S3".
   */
  MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
  /** The S3 service's address (MinIO, R2, ...); unset: AWS's for S3_REGION. */
  S3_ENDPOINT: optionalUrl(/^https?:\/\//),
  S3_BUCKET: z
    .string()
    .trim()
    .default('')
    .refine((value) => value === '' || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value), {
      message: '3 to 63 lowercase letters, digits, "." and "-", starting and ending with a letter or digit',
    }),
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,64}$/, 'lowercase letters, digits and "-" (us-east-1)')
    .default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().trim().default(''),
  S3_SECRET_ACCESS_KEY: z.string().trim().default(''),
  /** `true`: `<endpoint>/<bucket>/<key>` addresses (MinIO and most self-hosted stores); `false`: `<bucket>.<endpoint host>` (AWS). */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''], { message: 'true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
  /**
   * Asaas's API v3 (production; its sandbox is https://api-sandbox.asaas.com/v3). Asaas is
   * the provider while the platform setting `asaas` (the main company's) holds an API key;
   * tests point this at the local fake Asaas (`/fake-asaas/v3`, mounted with PIX_PROVIDER=fake).
   */
  ASAAS_BASE_URL: z.url().default('https://api.asaas.com/v3'),
  /** How many days a boleto has to be paid (its due date), 1 to 30. */
  BOLETO_DAYS_TO_PAY: z.coerce.number().int().min(1).max(30).default(3),
}).superRefine((env, ctx) => {
  if (env.MEDIA_STORAGE !== 's3') return;
  for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
    if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required when MEDIA_STORAGE=s3' });
  }
});

type Env = z.infer<typeof EnvSchema>;

/** Every variable loadConfig reads (deploy/atende.env.example describes each). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

export type Services = { api: boolean; worker: boolean; channels: boolean };

export interface Config
  extends Omit<
    Env,
    'JWT_SECRET' | 'JWT_REFRESH_SECRET' | 'ENCRYPTION_KEY' | 'WEB_ORIGIN' | 'OUTBOUND_ALLOW_PRIVATE' | 'PUBLIC_URL' | 'PIX_PROVIDER' | 'PAYMENT_WEBHOOK_SECRET' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT'
  > {
  JWT_SECRET: string;
  /** OUTBOUND_ALLOW_PRIVATE, one entry each. */
  outboundAllowPrivate: string[];
  JWT_REFRESH_SECRET: string;
  ENCRYPTION_KEY: string;
  webOrigins: string[];
  isProduction: boolean;
  PUBLIC_URL: string;
  PIX_PROVIDER: 'efi' | 'fake' | 'none';
  PAYMENT_WEBHOOK_SECRET: string;
  /** Web Push's application server key pair (base64url: the private scalar, the uncompressed public point). */
  vapid: VapidKeys;
  VAPID_SUBJECT: string;
}

export interface VapidKeys {
  privateKey: string;
  publicKey: string;
}

export class ConfigError extends Error {}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`).join('; ');
}

const SECRET_NAMES = ['JWT_SECRET', 'JWT_REFRESH_SECRET', 'ENCRYPTION_KEY'] as const;
type Secrets = Record<(typeof SECRET_NAMES)[number], string>;

/**
 * Secrets kept in the data dir so a second start of the embedded default reuses
 * them. A secret missing from an older file is generated and added.
 */
function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  // What else the file keeps (the VAPID key) is written back as it was.
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) {
    raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const parsed = z
      .object({ JWT_SECRET: z.string().min(32).optional(), JWT_REFRESH_SECRET: z.string().min(32).optional(), ENCRYPTION_KEY: z.string().min(32).optional() })
      .safeParse(raw);
    if (!parsed.success) throw new ConfigError(`${file} is damaged: ${describeIssues(parsed.error)}`);
    stored = parsed.data;
  }
  const missing = SECRET_NAMES.filter((name) => !stored[name]);
  if (missing.length === 0) return stored as Secrets;
  const secrets = { ...stored } as Secrets;
  for (const name of missing) secrets[name] = randomBytes(48).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...raw, ...secrets }, null, 2), { mode: 0o600 });
  return secrets;
}

function isVapidPrivateKey(value: string): boolean {
  if (!/^[A-Za-z0-9_-]{43}$/.test(value)) return false;
  try {
    vapidKeys(value);
    return true;
  } catch {
    return false;
  }
}

/** The key pair of a private key (throws when it is not a valid P-256 scalar). */
function vapidKeys(privateKey: string): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return { privateKey, publicKey: ecdh.getPublicKey().toString('base64url') };
}

/**
 * A fresh VAPID key, kept in DATA_DIR/secrets.json beside the other generated secrets (the
 * backup keeps that file): the browsers' subscriptions are bound to its public key, so a
 * new key would silence every subscribed browser until it subscribes again.
 */
function loadOrCreateVapidKey(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const kept = stored.VAPID_PRIVATE_KEY;
  if (typeof kept === 'string' && isVapidPrivateKey(kept)) return kept;
  if (kept !== undefined) throw new ConfigError(`${file} is damaged: VAPID_PRIVATE_KEY is not a P-256 private key`);
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const privateKey = ecdh.getPrivateKey().toString('base64url').padStart(43, 'A');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...stored, VAPID_PRIVATE_KEY: privateKey }, null, 2), { mode: 0o600 });
  return privateKey;
}

/** Production without VAPID_PRIVATE_KEY: a key every node derives alike from ENCRYPTION_KEY (HKDF). */
function derivedVapidKey(encryptionKey: string): string {
  for (let counter = 0; ; counter++) {
    const candidate = Buffer.from(hkdfSync('sha256', encryptionKey, 'atende', `web-push-vapid-p256 ${counter}`, 32)).toString('base64url');
    // Fails only for the (2^-32 likely) value at or above the curve's order.
    if (isVapidPrivateKey(candidate)) return candidate;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: ${describeIssues(parsed.error)}`);
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  const dataDir = path.resolve(values.DATA_DIR);

  let secrets: Secrets;
  const given = SECRET_NAMES.filter((name) => values[name]);
  if (given.length === SECRET_NAMES.length) {
    secrets = { JWT_SECRET: values.JWT_SECRET ?? '', JWT_REFRESH_SECRET: values.JWT_REFRESH_SECRET ?? '', ENCRYPTION_KEY: values.ENCRYPTION_KEY ?? '' };
  } else if (isProduction) {
    const missing = SECRET_NAMES.filter((name) => !values[name]);
    throw new ConfigError(`Invalid configuration: ${missing.join(', ')} required when NODE_ENV=production`);
  } else {
    // Given secrets win; the others come from (or are generated into) the data dir.
    const kept = loadOrCreateSecrets(dataDir);
    secrets = {
      JWT_SECRET: values.JWT_SECRET ?? kept.JWT_SECRET,
      JWT_REFRESH_SECRET: values.JWT_REFRESH_SECRET ?? kept.JWT_REFRESH_SECRET,
      ENCRYPTION_KEY: values.ENCRYPTION_KEY ?? kept.ENCRYPTION_KEY,
    };
  }
  if (values.HTTP_REQUEST_TIMEOUT_SECONDS > 0 && values.HTTP_REQUEST_TIMEOUT_SECONDS < values.HTTP_HEADERS_TIMEOUT_SECONDS) {
    throw new ConfigError('Invalid configuration: HTTP_REQUEST_TIMEOUT_SECONDS must be 0 or at least HTTP_HEADERS_TIMEOUT_SECONDS');
  }
  if (values.METRICS_PORT !== undefined && values.METRICS_TOKEN === undefined) {
    throw new ConfigError('Invalid configuration: METRICS_PORT needs METRICS_TOKEN');
  }
  if (secrets.JWT_SECRET === secrets.JWT_REFRESH_SECRET) {
    throw new ConfigError('Invalid configuration: JWT_SECRET and JWT_REFRESH_SECRET must differ');
  }

  const vapidPrivateKey = values.VAPID_PRIVATE_KEY ?? (isProduction ? derivedVapidKey(secrets.ENCRYPTION_KEY) : loadOrCreateVapidKey(dataDir));

  const { OUTBOUND_ALLOW_PRIVATE, VAPID_PRIVATE_KEY: _vapidPrivateKey, ...rest } = values;
  // The test PSP pays anything for free, so it runs only when named: never by default.
  const pixProvider = values.PIX_PROVIDER ?? 'none';
  if (pixProvider === 'efi') {
    const missing = (['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_CERT_PATH', 'PIX_KEY'] as const).filter((name) => !values[name]);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration: ${missing.join(', ')} required when PIX_PROVIDER=efi`);
  }
  return {
    ...rest,
    ...secrets,
    PUBLIC_URL: (values.PUBLIC_URL ?? `http://${values.HOST.includes(':') ? `[${values.HOST}]` : values.HOST}:${values.PORT}`).replace(/\/+$/, ''),
    PIX_PROVIDER: pixProvider,
    PAYMENT_WEBHOOK_SECRET: values.PAYMENT_WEBHOOK_SECRET ?? createHmac('sha256', secrets.ENCRYPTION_KEY).update('pix-webhook').digest('base64url'),
    outboundAllowPrivate: splitAllowList(OUTBOUND_ALLOW_PRIVATE),
    vapid: vapidKeys(vapidPrivateKey),
    VAPID_SUBJECT: values.VAPID_SUBJECT ?? `mailto:${values.ADMIN_EMAIL}`,
    DATA_DIR: dataDir,
    webOrigins: values.WEB_ORIGIN.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    isProduction,
  };
}

export function parseServices(argv: string[]): Services {
  const arg = argv.find((a) => a.startsWith('--services='));
  if (!arg) return { api: true, worker: true, channels: true };
  const names = arg.slice('--services='.length).split(',').map((s) => s.trim());
  const unknown = names.filter((n) => !['api', 'worker', 'channels'].includes(n));
  if (unknown.length > 0) throw new ConfigError(`Invalid --services: unknown ${unknown.join(', ')}`);
  return { api: names.includes('api'), worker: names.includes('worker'), channels: names.includes('channels') };
}
