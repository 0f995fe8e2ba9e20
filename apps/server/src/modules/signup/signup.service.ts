import { DEFAULT_SCHEDULES, type Language, type SignupBody } from '@atende/shared';
import type { AppServices } from '../../app.js';
import { AppError } from '../../platform/http/app-error.js';
import { hashPassword } from '../auth/auth.service.js';
import { insertCompany, MAIN_COMPANY_ID } from '../companies/companies.service.js';
import { makeDueInvoices } from '../invoices/invoices.service.js';
import { findPlan } from '../plans/plans.repo.js';
import { findSetting } from '../settings/settings.repo.js';
import { emailTaken } from '../users/users.repo.js';
import { accountExistsMail, welcomeMail } from './account-mails.js';

/** A new company's trial and first due date: now + 3 days (spec part 2 §5, §9). */
export const TRIAL_DAYS = 3;

/** A platform setting: only the main company's value counts (super users set it). */
export async function platformSetting(services: AppServices, key: 'publicSignup' | 'passwordResetNotFound'): Promise<string | null> {
  return (await findSetting(services.db, { companyId: MAIN_COMPANY_ID }, key))?.value ?? null;
}

export async function signupEnabled(services: AppServices): Promise<boolean> {
  return (await platformSetting(services, 'publicSignup')) !== 'disabled';
}

/**
 * Sends after the answer is decided, without waiting: the account exists either way,
 * the login page works without the mail, and a slow SMTP server neither delays the
 * page nor tells (by timing) which e-mails have accounts.
 */
function sendQuietly(services: AppServices, send: () => Promise<void>, log: (error: unknown) => void): void {
  if (!services.mailer.configured) return;
  send().catch(log);
}

/**
 * `POST /companies/cadastro`: a company on trial (due date and trial end now + 3
 * days, MENSAL, active, campaigns on, default settings and hours) with its first
 * admin. The answer is the same when the e-mail already has an account (nothing is
 * created; its owner is told by e-mail), so the page reveals no accounts.
 */
export async function signup(
  services: AppServices,
  input: { body: SignupBody; ip: string; language?: Language; log: (error: unknown) => void },
): Promise<void> {
  if (!(await services.signupLimiter.hit(input.ip, services.config.SIGNUP_LIMIT_PER_IP))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  if (!(await signupEnabled(services))) throw new AppError('ERR_SIGNUP_DISABLED');
  const { body } = input;
  if (!(await findPlan(services.db, body.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  // Hashed on both paths, so an existing e-mail answers as slowly as a new one.
  const passwordHash = await hashPassword(body.password);
  const url = services.config.PUBLIC_URL;
  const tellOwner = () => sendQuietly(services, () => services.mailer.send(accountExistsMail(body.email, url, input.language)), input.log);
  if (await emailTaken(services.db, body.email)) {
    tellOwner();
    return;
  }

  const trialEnd = new Date(Date.now() + TRIAL_DAYS * 86_400_000);
  let companyId: number;
  try {
    companyId = await services.db.transaction((tx) =>
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
      }),
    );
  } catch (error) {
    // Two sign-ups with one e-mail at once: the unique index let one through.
    if (await emailTaken(services.db, body.email)) {
    tellOwner();
    return;
  }
    throw error;
  }
  await makeDueInvoices(services, companyId);
  sendQuietly(services, () => services.mailer.send(welcomeMail(body.email, body.name, url, input.language)), input.log);
}
