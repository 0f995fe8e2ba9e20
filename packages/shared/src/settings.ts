/**
 * Company settings (spec part 1 §9, part 2 §5). Each key has its allowed values and
 * the default a new company starts with. `null` allowed values mean free text.
 */
export const SETTING_DEFINITIONS = {
  /** enabled: on close the customer is asked for a 1–3 rating (decision 6). */
  userRating: { values: ['enabled', 'disabled'], default: 'disabled' },
  /** Business hours: none, each queue's own, or the company's (Schedules tab). */
  scheduleType: { values: ['disabled', 'queue', 'company'], default: 'disabled' },
  /** enabled: calls are accepted; disabled: a caller is told (automatically) to write instead. */
  call: { values: ['enabled', 'disabled'], default: 'enabled' },
  /** enabled: group chats are ignored (their messages are neither stored nor answered); disabled: they become tickets, never botted. */
  CheckMsgIsGroup: { values: ['enabled', 'disabled'], default: 'enabled' },
  chatBotType: { values: ['text'], default: 'text' },
  sendGreetingAccepted: { values: ['enabled', 'disabled'], default: 'disabled' },
  sendMsgTransfTicket: { values: ['enabled', 'disabled'], default: 'disabled' },
  /** With a single queue on the connection the ticket goes straight to it; enabled: the greeting is still sent. */
  sendGreetingMessageOneQueues: { values: ['enabled', 'disabled'], default: 'enabled' },
  userCreation: { values: ['enabled', 'disabled'], default: 'enabled' },
  /** Initial state of the side menu: enabled = open. */
  sideMenu: { values: ['enabled', 'disabled'], default: 'enabled' },
  campaignsEnabled: { values: ['true', 'false'], default: 'true' },
  asaas: { values: null, default: '' },
} as const satisfies Record<string, { values: readonly string[] | null; default: string }>;

export type SettingKey = keyof typeof SETTING_DEFINITIONS;
export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFINITIONS, key);
}

/** Free-text settings are capped so a value can never grow without bound. */
export const SETTING_MAX_LENGTH = 500;

export function isAllowedSettingValue(key: SettingKey, value: string): boolean {
  const allowed: readonly string[] | null = SETTING_DEFINITIONS[key].values;
  return allowed === null ? value.length <= SETTING_MAX_LENGTH : allowed.includes(value);
}

export const DEFAULT_SETTINGS: { key: SettingKey; value: string }[] = SETTING_KEYS.map((key) => ({
  key,
  value: SETTING_DEFINITIONS[key].default,
}));
