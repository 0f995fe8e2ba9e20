/**
 * The one engine for the variables of every text sent to a customer: automatic
 * texts (greetings, out of hours, rating, completion, inactivity, the chatbot's
 * menus), quick messages, schedules and campaigns (docs/architecture.md,
 * "Message variables"). The server fills them when the text goes out; the web
 * editors offer the same list as chips.
 *
 * A variable is written `{{name}}` (the spec's spelling for connection and queue
 * texts, part 2 §2.2) or `{name}` (the campaigns' spelling, `{nome}`), under its
 * English or Portuguese name, whatever the case and accents (`{{Nome}}`,
 * `{saudação}`). Campaigns also take the keys of the campaign settings' variables,
 * exactly as they are written there.
 */
export const MESSAGE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'hora', 'data', 'number', 'email'] as const;
export type MessageVariable = (typeof MESSAGE_VARIABLES)[number];

/** Every name a variable answers to; the first is the one the editors insert. */
const NAMES: Record<MessageVariable, readonly string[]> = {
  firstName: ['firstName', 'primeiroNome'],
  name: ['name', 'nome'],
  ms: ['ms', 'saudacao', 'greeting'],
  protocol: ['protocol', 'protocolo'],
  hora: ['hora', 'time'],
  data: ['data', 'date'],
  number: ['number', 'numero'],
  email: ['email'],
};

/** Where a text goes: into a ticket (it has a protocol) or out with a campaign (no ticket, the settings' variables). */
export type MessageTextKind = 'ticket' | 'campaign';

/** The variables a kind of text may use, in the order the editors offer them. */
export function messageVariablesOf(kind: MessageTextKind): MessageVariable[] {
  return MESSAGE_VARIABLES.filter((variable) => kind === 'ticket' || variable !== 'protocol');
}

/** How the editors insert a variable (or a campaign settings' key). */
export function messageVariableToken(name: string): string {
  return `{{${name}}}`;
}

function comparable(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const BY_NAME = new Map<string, MessageVariable>(MESSAGE_VARIABLES.flatMap((variable) => NAMES[variable].map((name) => [comparable(name), variable] as const)));

/**
 * A placeholder: `{{ anything but braces }}`, or `{word}` (letters, digits, `_`,
 * `.`, `-`, inner spaces), neither touching another brace, so `{{{x}}}` or a JSON
 * object is not one and `{nome}` is not found again inside `{{nome}}`.
 */
const PLACEHOLDER = /(?<!\{)\{\{\s*([^{}]*?)\s*\}\}(?!\})|(?<!\{)\{([\p{L}\p{N}_.-](?:[\p{L}\p{N}_. -]*[\p{L}\p{N}_.-])?)\}(?!\})/gu;

interface Placeholder {
  /** As written between the braces, trimmed. */
  name: string;
  double: boolean;
}

function placeholderOf(match: RegExpMatchArray): Placeholder {
  return match[1] !== undefined ? { name: match[1], double: true } : { name: match[2] ?? '', double: false };
}

function spelled({ name, double }: Placeholder): string {
  return double ? `{{${name}}}` : `{${name}}`;
}

export interface MessageVariableOptions {
  /** Default 'ticket'. */
  kind?: MessageTextKind;
  /** A campaign's extra variables: the campaign settings' keys. */
  customKeys?: readonly string[];
  /**
   * Text an agent typed: a `{word}` that is no variable is ordinary text; only an
   * unknown `{{...}}` is a mistake. Stored templates are checked in both spellings.
   */
  typed?: boolean;
}

/** Known to a kind of text: a variable it may use, or one of its custom keys. */
function knownIn(name: string, options: MessageVariableOptions): boolean {
  const variable = BY_NAME.get(comparable(name));
  if (variable) return messageVariablesOf(options.kind ?? 'ticket').includes(variable);
  return (options.customKeys ?? []).includes(name);
}

/** The placeholders of `text` that are no variable of its kind, each once, with their braces (`{{nme}}`, `{cupom}`). */
export function unknownMessageVariables(text: string, options: MessageVariableOptions = {}): string[] {
  if (!text.includes('{')) return [];
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const placeholder = placeholderOf(match);
    if (options.typed && !placeholder.double) continue;
    if (!knownIn(placeholder.name, options)) unknown.add(spelled(placeholder));
  }
  return [...unknown];
}

/** What the variables of one text are filled with. */
export interface MessageContext {
  contact: { name: string; number?: string | null; email?: string | null };
  /** The ticket's protocol (its id); absent for a campaign, which has no ticket. */
  protocol?: string | number | null;
  now: Date;
  /** The company's time zone (clock and date). */
  timeZone: string;
  /** Further `key` → value pairs: a campaign's settings variables, an automatic text's own (`agent`). */
  custom?: readonly { key: string; value: string }[];
  /** The company's language (setting `language`), for the greeting of the day; default Portuguese. */
  language?: string;
}

const GREETINGS: Record<string, readonly [morning: string, afternoon: string, evening: string]> = {
  pt: ['Bom dia', 'Boa tarde', 'Boa noite'],
  en: ['Good morning', 'Good afternoon', 'Good evening'],
  es: ['Buenos días', 'Buenas tardes', 'Buenas noches'],
};

/** The greeting of the day (`{{ms}}`) in the company's language, Portuguese when it has none we know. */
export function greetingOfTheDay(hour: number, language = 'pt'): string {
  const [morning, afternoon, evening] = GREETINGS[language] ?? GREETINGS.pt!;
  if (hour >= 5 && hour < 12) return morning;
  if (hour >= 12 && hour < 18) return afternoon;
  return evening;
}

/** The parts of an instant in a time zone. */
function partsIn(now: Date, timeZone: string): Record<'day' | 'month' | 'year' | 'hour' | 'minute' | 'second', string> {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '00';
  return { day: get('day'), month: get('month'), year: get('year'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

function valueOf(variable: MessageVariable, context: MessageContext, clock: () => ReturnType<typeof partsIn>): string | null {
  switch (variable) {
    case 'firstName':
      return context.contact.name.trim().split(/\s+/)[0] ?? '';
    case 'name':
      return context.contact.name.trim();
    case 'ms':
      return greetingOfTheDay(Number(clock().hour), context.language);
    case 'protocol':
      return context.protocol === undefined || context.protocol === null ? null : String(context.protocol);
    case 'hora': {
      const { hour, minute, second } = clock();
      return `${hour}:${minute}:${second}`;
    }
    case 'data': {
      const { day, month, year } = clock();
      return `${day}/${month}/${year}`;
    }
    case 'number':
      return context.contact.number ?? '';
    case 'email':
      return context.contact.email ?? '';
  }
}

/**
 * Fills the variables of a template in one pass (a filled value is never read
 * again, so a customer named `{{protocol}}` stays so). A placeholder that is no
 * variable, or whose value the context lacks (a protocol without a ticket), stays
 * as written: saving refuses those (`unknownMessageVariables`).
 */
export function fillMessageVariables(template: string, context: MessageContext): string {
  if (!template.includes('{')) return template;
  let clock: ReturnType<typeof partsIn> | null = null;
  const now = () => (clock ??= partsIn(context.now, context.timeZone));
  return template.replace(PLACEHOLDER, (written: string, double?: string, single?: string) => {
    const name = double ?? single ?? '';
    const variable = BY_NAME.get(comparable(name));
    if (variable) return valueOf(variable, context, now) ?? written;
    return context.custom?.find((entry) => entry.key === name)?.value ?? written;
  });
}
