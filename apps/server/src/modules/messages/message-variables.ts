/**
 * Message variables of every automatic text (spec part 1 §9, part 2 §2.2):
 * {{firstName}}, {{name}}, {{ms}} (greeting of the day), {{protocol}}, {{hora}}.
 * Times are read in the company's time zone (decision 7).
 */
export interface MessageVariables {
  contactName: string;
  /** The ticket's protocol: its id (docs/architecture.md, ticket `code`). */
  protocol: string | number;
  now: Date;
  timeZone: string;
}

/** Hour (0–23) and HH:mm:ss of an instant in a time zone. */
function clockIn(now: Date, timeZone: string): { hour: number; time: string } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { hour: Number(get('hour')), time: `${get('hour')}:${get('minute')}:${get('second')}` };
}

/** Portuguese greeting of the day, as customers of the product expect it. */
export function greetingOfTheDay(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

/** Replaces the known variables (spaces inside the braces tolerated); unknown ones stay as written. */
export function formatMessage(template: string, vars: MessageVariables): string {
  if (!template.includes('{{')) return template;
  let clock: { hour: number; time: string } | null = null;
  const now = () => (clock ??= clockIn(vars.now, vars.timeZone));
  return template.replace(/\{\{\s*(firstName|name|ms|protocol|hora)\s*\}\}/g, (_match, key: string) => {
    switch (key) {
      case 'firstName':
        return firstNameOf(vars.contactName);
      case 'name':
        return vars.contactName.trim();
      case 'ms':
        return greetingOfTheDay(now().hour);
      case 'protocol':
        return String(vars.protocol);
      default:
        return now().time;
    }
  });
}
