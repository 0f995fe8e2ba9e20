import {
  CloudApiConfigBody,
  ConnectionCreateBody,
  DEFAULT_MAX_USE_BOT_QUEUES,
  DEFAULT_SCHEDULES,
  WEEKDAYS,
  type ConnectionProvider,
  type PresentedConnectionDetail,
  type ScheduleEntry,
} from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';

/** The providers the dialog offers; 'baileys' is the same as the spec's default 'beta'. */
export const DIALOG_PROVIDERS = ['beta', 'cloud-api', 'sandbox'] as const satisfies readonly ConnectionProvider[];

interface CloudApiFormValues {
  phoneNumberId: string;
  wabaId: string;
  /** Write-only: empty keeps the stored one. */
  accessToken: string;
  /** Write-only: empty keeps the stored one. */
  appSecret: string;
  verifyToken: string;
  graphApiBaseUrl: string;
}

/** What the dialog's inputs hold (numbers as typed; '' = no queue, prompt or integration). */
export interface ConnectionFormValues {
  name: string;
  provider: ConnectionProvider;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  pix: string;
  pixMessage: string;
  token: string;
  expiresTicket: number | string;
  timeUseBotQueues: number | string;
  maxUseBotQueues: number | string;
  timeToTransfer: number | string;
  transferQueueId: number | '';
  promptId: number | '';
  integrationId: number | '';
  queueIds: number[];
  schedules: ScheduleEntry[];
  cloudApi: CloudApiFormValues;
}

/** Every field except the Cloud API settings, which only a Cloud API connection sends. */
const WithoutCloudApi = ConnectionCreateBody.extend({ cloudApi: z.unknown().transform(() => undefined) });
const WithCloudApi = ConnectionCreateBody.extend({ cloudApi: CloudApiConfigBody });
export type ConnectionFormOutput = z.output<typeof ConnectionCreateBody>;

/**
 * The shared request schema validates the dialog; the Cloud API settings are
 * checked only when that provider is chosen (another provider ignores them).
 */
export const connectionFormResolver: Resolver<ConnectionFormValues, unknown, ConnectionFormOutput> = (values, context, options) => {
  const schema = values.provider === 'cloud-api' ? WithCloudApi : WithoutCloudApi;
  const resolve = zodResolver(schema) as unknown as Resolver<FieldValues, unknown, ConnectionFormOutput>;
  return resolve(values, context, options as unknown as Parameters<typeof resolve>[2]) as ReturnType<Resolver<ConnectionFormValues, unknown, ConnectionFormOutput>>;
};

/** Stored schedules in Monday–Sunday order, each with its optional second interval; a missing day gets its default hours (spec part 2 §9). */
export function schedulesFor(stored: readonly (Omit<ScheduleEntry, 'startTimeB' | 'endTimeB'> & Partial<ScheduleEntry>)[] | undefined): ScheduleEntry[] {
  return WEEKDAYS.map(({ weekdayEn }) => {
    const found = stored?.find((entry) => entry.weekdayEn === weekdayEn);
    const fallback = DEFAULT_SCHEDULES.find((entry) => entry.weekdayEn === weekdayEn);
    const entry = found ?? fallback ?? { weekday: weekdayEn, weekdayEn, startTime: '', endTime: '' };
    return { weekday: entry.weekday, weekdayEn: entry.weekdayEn, startTime: entry.startTime, endTime: entry.endTime, startTimeB: entry.startTimeB ?? '', endTimeB: entry.endTimeB ?? '' };
  });
}

/** The dialog's starting values: a new connection (provider 'beta', 3 bot-queue uses) or the one being edited. */
export function connectionFormDefaults(connection?: PresentedConnectionDetail | null): ConnectionFormValues {
  const cloud = connection?.cloudApi;
  return {
    name: connection?.name ?? '',
    provider: (DIALOG_PROVIDERS as readonly string[]).includes(connection?.provider ?? 'beta') ? ((connection?.provider ?? 'beta') as ConnectionProvider) : 'beta',
    isDefault: connection?.isDefault ?? false,
    greetingMessage: connection?.greetingMessage ?? '',
    complationMessage: connection?.complationMessage ?? '',
    outOfHoursMessage: connection?.outOfHoursMessage ?? '',
    ratingMessage: connection?.ratingMessage ?? '',
    expiresInactiveMessage: connection?.expiresInactiveMessage ?? '',
    pix: connection?.pix ?? '',
    pixMessage: connection?.pixMessage ?? '',
    token: connection?.token ?? '',
    expiresTicket: connection?.expiresTicket ?? 0,
    timeUseBotQueues: connection?.timeUseBotQueues ?? 0,
    maxUseBotQueues: connection?.maxUseBotQueues ?? DEFAULT_MAX_USE_BOT_QUEUES,
    timeToTransfer: connection?.timeToTransfer ?? 0,
    transferQueueId: connection?.transferQueueId ?? '',
    promptId: connection?.promptId ?? '',
    integrationId: connection?.integrationId ?? '',
    queueIds: connection?.queueIds ?? [],
    schedules: schedulesFor(connection?.schedules),
    cloudApi: {
      phoneNumberId: cloud?.phoneNumberId ?? '',
      wabaId: cloud?.wabaId ?? '',
      accessToken: '',
      appSecret: '',
      verifyToken: cloud?.verifyToken ?? '',
      graphApiBaseUrl: cloud?.graphApiBaseUrl ?? '',
    },
  };
}

export interface PayloadOptions {
  /** PUT: the provider is fixed after creation, so it is not sent. */
  editing: boolean;
  /** Only super users may point a connection at another Graph API address; others leave it as stored. */
  isSuper: boolean;
}

/** The body of `POST /whatsapp` or `PUT /whatsapp/:id` from the validated dialog. */
export function connectionPayload(values: ConnectionFormOutput, options: PayloadOptions): Record<string, unknown> {
  const { provider, cloudApi, integration: _alias, ...rest } = values;
  const payload: Record<string, unknown> = { ...rest };
  if (!options.editing) payload.provider = provider;
  if (cloudApi) {
    const { graphApiBaseUrl, accessToken, appSecret, ...settings } = cloudApi;
    payload.cloudApi = {
      ...settings,
      // An empty secret keeps the stored one: sending nothing says so plainly.
      ...(accessToken ? { accessToken } : {}),
      ...(appSecret ? { appSecret } : {}),
      ...(options.isSuper ? { graphApiBaseUrl: graphApiBaseUrl ?? '' } : {}),
    };
  }
  return payload;
}

/** Which tab of the dialog shows a field (so a refused save opens the tab with the first error). */
export type ConnectionTab = 'general' | 'messages' | 'automation' | 'hours' | 'holidays' | 'cloudApi';

const FIELD_TABS: Record<string, ConnectionTab> = {
  name: 'general',
  provider: 'general',
  isDefault: 'general',
  token: 'general',
  queueIds: 'general',
  greetingMessage: 'messages',
  complationMessage: 'messages',
  outOfHoursMessage: 'messages',
  ratingMessage: 'messages',
  expiresInactiveMessage: 'messages',
  pix: 'messages',
  pixMessage: 'messages',
  expiresTicket: 'automation',
  timeUseBotQueues: 'automation',
  maxUseBotQueues: 'automation',
  timeToTransfer: 'automation',
  transferQueueId: 'automation',
  promptId: 'automation',
  integrationId: 'automation',
  integration: 'automation',
  schedules: 'hours',
  cloudApi: 'cloudApi',
};

/** The tab of a field path such as `cloudApi.wabaId` or `schedules.2.endTime`. */
export function tabOfField(path: string): ConnectionTab {
  return FIELD_TABS[path.split('.')[0] ?? ''] ?? 'general';
}

/** The form fields a server's `ERR_VALIDATION` names (`fields: {"cloudApi.wabaId": [...]}`), with their first message. */
export function serverFieldErrors(data: Record<string, unknown>): [path: string, message: string][] {
  const fields = data.fields;
  if (!fields || typeof fields !== 'object') return [];
  return Object.entries(fields as Record<string, unknown>).flatMap(([path, messages]) => {
    const first = Array.isArray(messages) ? messages[0] : messages;
    if (typeof first !== 'string') return [];
    return [[path === 'integration' ? 'integrationId' : path, first] as [string, string]];
  });
}
