import { addToCalendarDate, NO_EXPIRY_DUE_DATE, PlanBody } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDisplayTimeZone } from '../../i18n/dates';
import type { Company } from './companies-queries';
import {
  companyFormDefaults,
  CompanyFormSchema,
  companyPayload,
  daysUntilDue,
  dueColour,
  dueDatePayload,
  parseDateInput,
  recurrenceChoices,
  renewDueDate,
  toDateInput,
} from './company-form';
import { formatReais } from '../../i18n';
import { limitText, planFormDefaults, sortPlans } from './plan-form';
import type { Plan } from './plans-queries';

/** 09:30 on 10 June 2025 in São Paulo, the zone the dates are shown in here (whatever the test machine's). */
const june10 = new Date('2025-06-10T12:30:00Z');
const inDays = (days: number) => addToCalendarDate('2025-06-10', { days });
beforeAll(() => setDisplayTimeZone('America/Sao_Paulo'));
afterAll(() => setDisplayTimeZone(null));

describe('company row colour by due date (spec part 2 §9)', () => {
  it("counts calendar days from the company's today", () => {
    expect(daysUntilDue('2025-06-10', june10)).toBe(0);
    expect(daysUntilDue('2025-06-11', june10)).toBe(1);
    expect(daysUntilDue('2025-06-09', june10)).toBe(-1);
    // Across a month end; 01:30 UTC on 1 July is still 30 June in São Paulo.
    expect(daysUntilDue('2025-07-01', new Date('2025-07-01T01:30:00Z'))).toBe(1);
  });

  it('is yellow at exactly 5 days, orange from -3 to 4, red at exactly -4, none otherwise', () => {
    const colours = Object.fromEntries([-6, -5, -4, -3, -2, 0, 1, 4, 5, 6, 30].map((d) => [d, dueColour(inDays(d), june10)]));
    expect(colours).toEqual({
      '-6': null,
      '-5': null,
      '-4': 'red',
      '-3': 'orange',
      '-2': 'orange',
      '0': 'orange',
      '1': 'orange',
      '4': 'orange',
      '5': 'yellow',
      '6': null,
      '30': null,
    });
    expect(dueColour(null, june10)).toBeNull();
    expect(dueColour('not a date', june10)).toBeNull();
  });
});

describe('company renewal (spec part 2 §4)', () => {
  it('moves the due date forward by the recurrence', () => {
    expect(renewDueDate('2025-06-10', 'MENSAL', '2025-06-10')).toBe('2025-07-10');
    expect(renewDueDate('2025-06-10', 'BIMESTRAL', '2025-06-10')).toBe('2025-08-10');
    expect(renewDueDate('2025-06-10', 'TRIMESTRAL', '2025-06-10')).toBe('2025-09-10');
    expect(renewDueDate('2025-06-10', 'SEMESTRAL', '2025-06-10')).toBe('2025-12-10');
    expect(renewDueDate('2025-06-10', 'ANUAL', '2025-06-10')).toBe('2026-06-10');
    expect(renewDueDate('2025-11-15', 'SEMESTRAL', '2025-06-10')).toBe('2026-05-15');
  });

  it('ends on the last day of a shorter month, and starts from today without a due date', () => {
    expect(renewDueDate('2025-01-31', 'MENSAL', '2025-06-10')).toBe('2025-02-28');
    expect(renewDueDate('2024-01-31', 'MENSAL', '2025-06-10')).toBe('2024-02-29');
    expect(renewDueDate('2025-08-31', 'MENSAL', '2025-06-10')).toBe('2025-09-30');
    expect(renewDueDate('', 'MENSAL', '2025-06-10')).toBe('2025-07-10');
    expect(renewDueDate('2025-02-30', 'MENSAL', '2025-06-10')).toBe('2025-07-10');
  });
});

describe('company due date in the form', () => {
  it('reads and writes the date input as a calendar date', () => {
    expect(toDateInput('2025-01-05')).toBe('2025-01-05');
    // An older answer's instant: its day in the company's zone.
    expect(toDateInput('2025-01-06T02:59:00.000Z')).toBe('2025-01-05');
    expect(toDateInput(null)).toBe('');
    // The server sends "no expiry" as a far-future date; the dialog shows it as empty.
    expect(toDateInput(NO_EXPIRY_DUE_DATE)).toBe('');
    expect(toDateInput('garbage')).toBe('');
    expect(parseDateInput('2025-02-29')).toBeNull();
    expect(parseDateInput('2025-2-3')).toBeNull();
    expect(parseDateInput('2024-02-29')).toBe('2024-02-29');
  });

  it('sends null when empty or invalid, else the date typed (DECISIONS 15)', () => {
    expect(dueDatePayload('')).toBeNull();
    expect(dueDatePayload('2025-13-01')).toBeNull();
    expect(dueDatePayload('2026-02-30')).toBeNull();
    expect(dueDatePayload(' 2026-11-01 ')).toBe('2026-11-01');
  });
});

describe('company form', () => {
  const plan = { id: 3, name: 'Pro' } as Plan;
  const company: Company = {
    id: 9,
    name: 'Acme',
    email: 'a@acme.test',
    phone: '',
    planId: 3,
    plan,
    status: true,
    dueDate: '2025-06-10',
    recurrence: 'MENSAL',
    schedules: [],
    timezone: 'America/Sao_Paulo',
    campaignsEnabled: false,
    createdAt: '',
    updatedAt: '',
  };

  it('offers only MENSAL, plus the recurrence a company already has', () => {
    expect(recurrenceChoices()).toEqual(['MENSAL']);
    expect(recurrenceChoices('MENSAL')).toEqual(['MENSAL']);
    expect(recurrenceChoices('ANUAL')).toEqual(['MENSAL', 'ANUAL']);
    expect(recurrenceChoices('WEEKLY')).toEqual(['MENSAL']);
  });

  it('requires a name and a plan; a first-admin password needs 5 characters and the email', () => {
    const empty = CompanyFormSchema.safeParse(companyFormDefaults(null));
    expect(empty.success).toBe(false);
    // The form shows each field's first message.
    const issues: Record<string, string> = {};
    for (const issue of empty.error?.issues ?? []) issues[issue.path.join('.')] ??= issue.message;
    expect(issues).toEqual({ name: 'validation.required', planId: 'validation.required' });

    const noEmail = CompanyFormSchema.safeParse({ ...companyFormDefaults(null), name: 'Nova', planId: 3, password: 'abcdef' });
    expect(noEmail.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['email', 'validation.required']]);
    const short = CompanyFormSchema.safeParse({ ...companyFormDefaults(null), name: 'Nova', planId: 3, email: 'n@n.test', password: 'abc' });
    expect(short.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['password', 'validation.tooShort']]);
  });

  it('builds the add body with the first admin, and the edit body without a password', () => {
    const added = CompanyFormSchema.parse({ ...companyFormDefaults(null), name: ' Nova ', planId: 3, email: 'N@N.test', password: 'abcdef', dueDate: '' });
    expect(companyPayload(added, null)).toEqual({
      name: 'Nova',
      email: 'n@n.test',
      phone: '',
      planId: 3,
      status: true,
      campaignsEnabled: true,
      recurrence: 'MENSAL',
      dueDate: null,
      password: 'abcdef',
    });

    const defaults = companyFormDefaults(company);
    expect(defaults).toMatchObject({ name: 'Acme', planId: 3, campaignsEnabled: false, dueDate: '2025-06-10', password: '' });
    const edited = CompanyFormSchema.parse({ ...defaults, dueDate: renewDueDate(String(defaults.dueDate), 'MENSAL', '2025-06-10') });
    const body = companyPayload(edited, company);
    expect(body).not.toHaveProperty('password');
    expect(body.dueDate).toBe('2025-07-10');
    expect(body.campaignsEnabled).toBe(false);
  });
});

describe('plan form', () => {
  it('starts a new plan with every feature on and limits at 0 (spec part 2 §3)', () => {
    expect(planFormDefaults(null)).toEqual({
      name: '',
      value: '0,00',
      users: 0,
      connections: 0,
      queues: 0,
      useCampaigns: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
    });
    const plan = { ...planFormDefaults(null), id: 1, name: 'Basic', users: 5, value: 49.9, useKanban: false, createdAt: '', updatedAt: '' } as Plan;
    expect(planFormDefaults(plan)).toMatchObject({ name: 'Basic', users: 5, value: '49,90', useKanban: false, useOpenAi: true });
  });

  it('takes the price in the Brazilian format and says 0 is no limit', () => {
    const parse = (value: string) => PlanBody.safeParse({ ...planFormDefaults(null), name: 'Pro', value });
    expect(parse('99,90').data?.value).toBe(99.9);
    expect(parse('1.234,56').data?.value).toBe(1234.56);
    expect(parse('R$ 10').data?.value).toBe(10);
    expect(parse('99.90').data?.value).toBe(99.9);
    for (const bad of ['99,999', 'abc', '-1', '9,9,9']) expect(parse(bad).success, bad).toBe(false);
    expect([0, 3].map(limitText)).toEqual(['∞', '3']);
  });

  it('lists plans by name and shows prices in reais', () => {
    const plans = [{ id: 2, name: 'Pro' }, { id: 1, name: 'Basic' }, { id: 3, name: 'Basic' }] as Plan[];
    expect(sortPlans(plans).map((p) => p.id)).toEqual([1, 3, 2]);
    expect(formatReais(1234.5).replace(/\s/g, ' ')).toBe('R$ 1.234,50');
  });
});
