import { addToCalendarDate, dayIn, DEFAULT_SCHEDULES, DEFAULT_TIMEZONE, type Language, type PlatformSettingKey, type PublicAuthOptions, type SignupBody } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import type { RateLimiter } from '../../platform/http/rate-limiter.js';
import type { Platform } from '../../platform/platform.js';
import { hashPassword } from '../auth/auth.service.js';
import { insertCompany } from '../companies/companies.repo.js';
import { MAIN_COMPANY_ID } from '../companies/companies.service.js';
import { makeDueInvoices } from '../invoices/invoices.service.js';
import { findPlan } from '../plans/plans.repo.js';
import { findSetting } from '../settings/settings.repo.js';
import { emailTaken } from '../users/users.repo.js';
import { accountExistsMail, welcomeMail } from './account-mails.js';

export type SignupDeps = Pick<Platform, 'db' | 'config' | 'mailer'> & {
  /** Public sign-ups per IP (fixed windows of an hour). */
  signupLimiter: RateLimiter;
};

/** A new company's trial and first due date: now + 3 days (spec part 2 §5, §9), unless the platform's `trial` setting says otherwise. */
const TRIAL_DAYS = 3;

/** A platform setting: only the main company's value counts (super users set it); `language` is the main company's, the install's language. */
export async function platformSetting(deps: Pick<Platform, 'db'>, key: PlatformSettingKey | 'language'): Promise<string | null> {
  return (await findSetting(deps.db, { companyId: MAIN_COMPANY_ID }, key))?.value ?? null;
}

/** The days of a new company's trial: the platform's `trial` setting (whaticket v6's key), 3 when never set. */
export async function trialDays(deps: Pick<Platform, 'db'>): Promise<number> {
  const days = Number(await platformSetting(deps, 'trial'));
  return Number.isInteger(days) && days > 0 ? days : TRIAL_DAYS;
}

async function signupEnabled(deps: Pick<Platform, 'db'>): Promise<boolean> {
  return (await platformSetting(deps, 'publicSignup')) !== 'disabled';
}

/** What the public pages need before they are used: whether sign-up is open and e-mail works. */
export async function publicAuthOptions(deps: Pick<Platform, 'db' | 'mailer'>): Promise<PublicAuthOptions> {
  return { signupEnabled: await signupEnabled(deps), mailEnabled: deps.mailer.configured };
}

/**
 * Sends after the answer is decided, without waiting: the account exists either way,
 * the login page works without the mail, and a slow SMTP server neither delays the
 * page nor tells (by timing) which e-mails have accounts.
 */
function sendQuietly(deps: Pick<Platform, 'mailer'>, send: () => Promise<void>, log: (error: unknown) => void): void {
  if (!deps.mailer.configured) return;
  send().catch(log);
}

/**
 * `POST /companies/cadastro`: a company on trial (due date and trial end now + 3
 * days, MENSAL, active, campaigns on, default settings and hours) with its first
 * admin. The answer is the same when the e-mail already has an account (nothing is
 * created; its owner is told by e-mail), so the page reveals no accounts.
 */
export async function signup(
  deps: SignupDeps,
  input: { body: SignupBody; ip: string; language?: Language; log: (error: unknown) => void },
): Promise<void> {
  if (!(await deps.signupLimiter.hit(input.ip, deps.config.SIGNUP_LIMIT_PER_IP))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  if (!(await signupEnabled(deps))) throw new AppError('ERR_SIGNUP_DISABLED');
  const { body } = input;
  if (!(await findPlan(deps.db, body.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  // Hashed on both paths, so an existing e-mail answers as slowly as a new one.
  const passwordHash = await hashPassword(body.password);
  const url = deps.config.PUBLIC_URL;
  const tellOwner = () => sendQuietly(deps, () => deps.mailer.send(accountExistsMail(body.email, url, input.language)), input.log);
  if (await emailTaken(deps.db, body.email)) {
    tellOwner();
    return;
  }

  // A calendar date: the trial runs through the trial's last day from today in the company's zone (the default one at sign-up).
  const trialEnd = addToCalendarDate(dayIn(new Date(), DEFAULT_TIMEZONE), { days: await trialDays(deps) });
  let companyId: number;
  try {
    companyId = await deps.db.transaction((tx) =>
      insertCompany(tx, {
        company: {
          name: body.name,
          email: body.email,
          phone: body.phone,
          planId: body.planId,
          status: true,
          dueDate: trialEnd,
          trialExpiration: trialEnd,
          recurrence: 'MENSAL',
          schedules: DEFAULT_SCHEDULES,
        },
        campaignsEnabled: true,
        admin: { name: body.name, email: body.email, passwordHash },
        // Chosen on the sign-up page (DECISIONS §1): the company's language.
        ...(input.language ? { language: input.language } : {}),
      }),
    );
  } catch (error) {
    // Two sign-ups with one e-mail at once: the unique index let one through.
    if (await emailTaken(deps.db, body.email)) {
      tellOwner();
      return;
    }
    throw error;
  }
  await makeDueInvoices(deps, companyId);
  sendQuietly(deps, () => deps.mailer.send(welcomeMail(body.email, body.name, url, input.language)), input.log);
}
