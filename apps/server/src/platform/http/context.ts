import { addToCalendarDate, dayIn, startOfDayIn, type AllTicket, type PlanFlags, type Profile } from '@atende/shared';

/** The signed-in user as every request and socket sees it. */
interface SessionUser {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  allTicket: AllTicket;
  tokenVersion: number;
  queueIds: number[];
  /**
   * The company requires a second factor and this user has none: the session reaches only
   * the routes that set one up (`allowTwoFactorSetup`), and opens no socket.
   */
  twoFactorSetupRequired?: boolean;
}

export interface CompanyAccess {
  id: number;
  name: string;
  /** A calendar date (`YYYY-MM-DD`): the company works through this day in its zone. */
  dueDate: string | null;
  status: boolean;
  timezone: string;
  plan: PlanFlags & { id: number; users: number; connections: number; queues: number };
}

/**
 * A tenant scope: the only thing a repository needs to start a query. Every
 * repository function takes it first, so a query without a company does not compile.
 */
export interface TenantScope {
  readonly companyId: number;
}

/** Resolved once per request (and once per socket) by the auth hook. */
export interface RequestContext extends TenantScope {
  readonly user: SessionUser;
  readonly company: CompanyAccess;
  /** Set when a company API key made the request (the key acts as its admin): the audit log names it. */
  readonly apiKeyId?: number;
  /** Where an HTTP request came from (the auth hook sets it; absent on sockets and jobs): the audit log records it. */
  readonly client?: RequestClient;
}

/** The client's address (`request.ip`: TRUST_PROXY decides whether X-Forwarded-For counts) and browser. */
export interface RequestClient {
  readonly ip: string;
  readonly userAgent: string | null;
}

/** Turns an access token into the request's context (modules/auth implements it); 401/403 AppErrors otherwise. */
export type Authenticate = (accessToken: string) => Promise<RequestContext>;

/** Past its due date: the due day is over in the company's zone (DECISIONS 15). */
export function isCompanyExpired(company: Pick<CompanyAccess, 'dueDate' | 'timezone'>, now = new Date()): boolean {
  return company.dueDate !== null && company.dueDate < dayIn(now, company.timezone);
}

/** When a company with a due date stops working: the start of the day after it, in its zone. */
export function companyExpiresAt(company: Pick<CompanyAccess, 'dueDate' | 'timezone'>): Date | null {
  return company.dueDate === null ? null : startOfDayIn(addToCalendarDate(company.dueDate, { days: 1 }), company.timezone);
}

/**
 * A company with `status = false` is suspended: no one but super users works in
 * it, on any route (even those an expired company keeps), nor signs in.
 */
export function isCompanySuspended(company: Pick<CompanyAccess, 'status'>): boolean {
  return !company.status;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every private route; absent on public ones. */
    ctx: RequestContext;
  }
  interface FastifyContextConfig {
    /** A private route that stays reachable when the company's subscription expired. */
    allowExpiredCompany?: boolean;
    /** A private route a user who must set up a second factor still reaches (its set-up, `GET /auth/me`). */
    allowTwoFactorSetup?: boolean;
  }
}
