/**
 * Who may read a setting: `public` every user of the company (the app's behaviour
 * toggles the UI reads), `admin` the company's admins only, `secret` admins only,
 * and then masked: a secret is sealed at rest and never sent whole after it is saved
 * (not in answers, not in socket events).
 */
export type SettingVisibility = 'public' | 'admin' | 'secret';

/** The languages the chatbot's menu texts have defaults in. */
export const CHATBOT_TEXT_LANGUAGES = ['pt', 'en', 'es'] as const;
export type ChatbotTextLanguage = (typeof CHATBOT_TEXT_LANGUAGES)[number];

/**
 * The chatbot's own menu words (the customer reads them on WhatsApp): the line
 * above a menu without a greeting, and the `0` (back) and `#` (main menu)
 * entries. A company sets them in its settings; a new company starts in Portuguese.
 */
export const CHATBOT_TEXT_DEFAULTS = {
  pt: { chatbotChooseOption: 'Escolha uma das opções abaixo:', chatbotBack: 'Voltar', chatbotMainMenu: 'Menu principal' },
  en: { chatbotChooseOption: 'Choose one of the options below:', chatbotBack: 'Back', chatbotMainMenu: 'Main menu' },
  es: { chatbotChooseOption: 'Elija una de las opciones a continuación:', chatbotBack: 'Volver', chatbotMainMenu: 'Menú principal' },
} as const satisfies Record<ChatbotTextLanguage, Record<string, string>>;

export type ChatbotTextKey = keyof (typeof CHATBOT_TEXT_DEFAULTS)['pt'];
export const CHATBOT_TEXT_KEYS = Object.keys(CHATBOT_TEXT_DEFAULTS.pt) as ChatbotTextKey[];

/**
 * Company settings (spec part 1 §9, part 2 §5). Each key has its allowed values,
 * the default a new company starts with and its visibility. `null` allowed values
 * mean free text.
 */
export const SETTING_DEFINITIONS = {
  /** enabled: on close the customer is asked for a 1–3 rating (decision 6). */
  userRating: { values: ['enabled', 'disabled'], default: 'disabled', visibility: 'public' },
  /** Business hours: none, each queue's own, or the company's (Schedules tab). */
  scheduleType: { values: ['disabled', 'queue', 'company'], default: 'disabled', visibility: 'public' },
  /** enabled: calls are accepted; disabled: a caller is told (automatically) to write instead. */
  call: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'public' },
  /** enabled: group chats are ignored (their messages are neither stored nor answered); disabled: they become tickets, never botted. */
  CheckMsgIsGroup: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'public' },
  chatBotType: { values: ['text'], default: 'text', visibility: 'public' },
  sendGreetingAccepted: { values: ['enabled', 'disabled'], default: 'disabled', visibility: 'public' },
  sendMsgTransfTicket: { values: ['enabled', 'disabled'], default: 'disabled', visibility: 'public' },
  /** With a single queue on the connection the ticket goes straight to it; enabled: the greeting is still sent. */
  sendGreetingMessageOneQueues: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'public' },
  userCreation: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'admin' },
  /**
   * The company's language (DECISIONS §1): what its new users start with, what its
   * chatbot's own texts and its e-mails are written in. A user's own choice wins for that user.
   */
  language: { values: ['pt', 'en', 'es'], default: 'pt', visibility: 'public' },
  /** Initial state of the side menu: enabled = open. */
  sideMenu: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'public' },
  campaignsEnabled: { values: ['true', 'false'], default: 'true', visibility: 'public' },
  /** enabled: every user of the company signs in with a second factor; one without it reaches only its set-up (issue 35). */
  requireTwoFactor: { values: ['enabled', 'disabled'], default: 'disabled', visibility: 'public' },
  asaas: { values: null, default: '', visibility: 'secret' },
  /** Platform setting (read from the main company): the public sign-up page creates companies. */
  publicSignup: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'admin' },
  /** Platform setting: `POST /forgetpassword` answers the spec's 404-in-body for an unknown e-mail (reveals accounts). */
  passwordResetNotFound: { values: ['enabled', 'disabled'], default: 'disabled', visibility: 'admin' },
  /** The chatbot's menu texts (free text; empty: the Portuguese default). */
  chatbotChooseOption: { values: null, default: CHATBOT_TEXT_DEFAULTS.pt.chatbotChooseOption, visibility: 'admin' },
  chatbotBack: { values: null, default: CHATBOT_TEXT_DEFAULTS.pt.chatbotBack, visibility: 'admin' },
  chatbotMainMenu: { values: null, default: CHATBOT_TEXT_DEFAULTS.pt.chatbotMainMenu, visibility: 'admin' },
  // ---- Keys of the whaticket v6 client (issue 32; docs/architecture.md, "The whaticket v6 web client") ----
  /** v6's tickets screen shows the Closed tab (and groups) to non-admins when enabled; Atende's own screens show them to everyone. */
  viewclosed: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'public' },
  viewgroups: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'public' },
  /** The notices of `sendGreetingAccepted` and `sendMsgTransfTicket` as the company writes them; empty: the default of the company's language. */
  sendGreetingAcceptedMessage: { values: null, default: '', visibility: 'admin' },
  sendMsgTransfTicketMessage: { values: null, default: '', visibility: 'admin' },
  /** Holiday periods of the connections (`/whatsapp/:id/holiday-periods`) close them; disabled: they are ignored. */
  holidayPeriodEnabled: { values: ['enabled', 'disabled'], default: 'enabled', visibility: 'admin' },
  /** Stored for v6's screen; a holiday period always closes the connection (the queues' menu is not offered then). */
  holidayPeriodAllowQueueFlow: { values: ['enabled', 'disabled'], default: 'disabled', visibility: 'admin' },
  /** Stored for v6's screen, not used: Atende sends no birthday messages. */
  birthdayReminderEnabled: { values: ['enabled', 'disabled'], default: 'disabled', visibility: 'admin' },
  birthdayMessage: { values: null, default: '', visibility: 'admin' },
  birthdayReminderTime: { values: null, default: '09:00', visibility: 'admin' },
  /** Stored for v6's screen, not used: Atende has no IXC or MK-Auth integration. */
  ipixc: { values: null, default: '', visibility: 'admin' },
  tokenixc: { values: null, default: '', visibility: 'secret' },
  ipmkauth: { values: null, default: '', visibility: 'admin' },
  clientidmkauth: { values: null, default: '', visibility: 'admin' },
  clientsecretmkauth: { values: null, default: '', visibility: 'secret' },
  /** Stored for v6's screens (its Gemini suggestions); Atende's AI goes through prompts. */
  geminiApiToken: { values: null, default: '', visibility: 'secret' },
  geminiModel: { values: null, default: 'gemini-2.0-flash-exp', visibility: 'admin' },
  /** Platform: the key v6's GIF picker uses (the browser calls Giphy with it, so every user reads it). */
  giphyApiKey: { values: null, default: '', visibility: 'public' },
  /** Platform: the days of a signed-up company's free trial. */
  trial: { values: Array.from({ length: 30 }, (_, day) => String(day + 1)), default: '3', visibility: 'admin' },
  /** Platform, stored for v6's screen, not used: Atende's payments are the `PIX_PROVIDER` of the install (and `asaas`). */
  subscriptionPaymentProvider: { values: null, default: '', visibility: 'admin' },
  gerencianetSandbox: { values: ['true', 'false'], default: 'false', visibility: 'admin' },
  gerencianetClientId: { values: null, default: '', visibility: 'admin' },
  gerencianetClientSecret: { values: null, default: '', visibility: 'secret' },
  gerencianetPixKey: { values: null, default: '', visibility: 'admin' },
  mercadoPagoAccessToken: { values: null, default: '', visibility: 'secret' },
  mercadoPagoPublicKey: { values: null, default: '', visibility: 'admin' },
  mercadoPagoWebhookSecret: { values: null, default: '', visibility: 'secret' },
} as const satisfies Record<string, { values: readonly string[] | null; default: string; visibility: SettingVisibility }>;

export type SettingKey = keyof typeof SETTING_DEFINITIONS;
export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFINITIONS, key);
}

/** The visibility of a stored key; a key no definition names (an old row) is treated as admin-only. */
export function settingVisibility(key: string): SettingVisibility {
  return isSettingKey(key) ? SETTING_DEFINITIONS[key].visibility : 'admin';
}

/** Whether a user of this profile may read the key at all (secrets: masked). */
export function maySeeSetting(key: string, profile: string): boolean {
  return settingVisibility(key) === 'public' || profile === 'admin';
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

/**
 * Settings of the platform rather than of a company: only the main company's
 * value counts, and only super users change them.
 */
export const PLATFORM_SETTING_KEYS = [
  'publicSignup',
  'passwordResetNotFound',
  'giphyApiKey',
  'trial',
  'subscriptionPaymentProvider',
  'gerencianetSandbox',
  'gerencianetClientId',
  'gerencianetClientSecret',
  'gerencianetPixKey',
  'mercadoPagoAccessToken',
  'mercadoPagoPublicKey',
  'mercadoPagoWebhookSecret',
] as const satisfies readonly SettingKey[];

export type PlatformSettingKey = (typeof PLATFORM_SETTING_KEYS)[number];

/** whaticket v6's names of the platform's sign-up switch (both mean `publicSignup`). */
export const SETTING_ALIASES: Record<string, SettingKey> = { allowregister: 'publicSignup', viewregister: 'publicSignup' };

export function isPlatformSetting(key: string): boolean {
  return (PLATFORM_SETTING_KEYS as readonly string[]).includes(key);
}
