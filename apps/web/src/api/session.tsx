import type { PresentedUser } from '@atende/shared';
import i18next from 'i18next';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { changeLanguage, supportedLanguage, writePreloadHint } from '../i18n';
import { browserTimeZone, setDisplayTimeZone } from '../i18n/dates';
import { createHttpClient, type HttpClient } from './http-client';
import { clearSessionStorage, forgetSessionEnd, STORAGE } from './storage-keys';

interface SessionState {
  api: HttpClient;
  user: PresentedUser | null;
  /** True until the stored token has been checked with the server. */
  loading: boolean;
  /** Where a signed-in user on a public route goes: /tickets right after login, else / (spec). */
  landing: string;
  /**
   * `billing`: an admin of a company past its due date signs in only to pay (the
   * server then answers 402 on every route but the billing ones); it lands on /financeiro.
   */
  /**
   * `code`: the account's second factor (two-factor sign-in). An account with one answers
   * `twoFactorRequired` (no session yet) until the code is sent with the password.
   */
  signIn(email: string, password: string, options?: { billing?: boolean; code?: string }): Promise<PresentedUser | { twoFactorRequired: true }>;
  /** Loads the signed-in user again (`GET /auth/me`), e.g. after a payment moved the company's due date. */
  reloadUser(): Promise<PresentedUser | null>;
  signOut(): Promise<void>;
  setUser(user: PresentedUser): void;
  /** Ends the session locally (after a 401, a failed refresh, an account used elsewhere). */
  endSession(): void;
}

const SessionContext = createContext<SessionState | null>(null);

/** The stored session's `GET /auth/me`, sent at boot (public/boot.js) while the first chunks download; the provider takes its answer. */
let bootUser: Promise<PresentedUser> | null = null;
/** Its answer once in: the provider's first render already has the user (no loading frame before the app's). */
let bootAnswer: PresentedUser | null = null;

/**
 * Takes the answer to who the stored token belongs to, asked by public/boot.js before the
 * modules loaded (none without a stored token). Anything but a plain answer (an expired
 * token, a 401, the server down) is left to the provider's own request, which refreshes the
 * token or ends the session as usual.
 */
export function prefetchSessionUser(): void {
  const boot = globalThis as { __atendeSessionUser?: Promise<Response> };
  const request = boot.__atendeSessionUser;
  delete boot.__atendeSessionUser;
  if (!request) return;
  bootUser = request.then((response) =>
    response.ok ? (response.json() as Promise<PresentedUser>) : Promise.reject(new Error(`GET /auth/me: ${response.status}`)),
  );
  bootUser.then(
    (me) => (bootAnswer = me),
    () => undefined,
  );
}

/** Settles once the boot's `GET /auth/me` has (or when there is none): main.tsx renders after it. */
export function sessionUserSettled(): Promise<unknown> {
  return bootUser ? bootUser.catch(() => undefined) : Promise.resolve();
}

export function SessionProvider({ children, onSessionEnd }: { children: ReactNode; onSessionEnd(): void }) {
  const [user, setUser] = useState<PresentedUser | null>(() => bootAnswer);
  const [loading, setLoading] = useState(() => !bootAnswer && Boolean(localStorage.getItem(STORAGE.token)));
  // Whether the first render started with boot's answer (main.tsx waits for it, up to a limit).
  const startedWithBootAnswer = useRef(bootAnswer !== null);
  const [landing, setLanding] = useState('/');

  const endSession = useCallback(() => {
    clearSessionStorage();
    writePreloadHint();
    setUser(null);
    onSessionEnd();
  }, [onSessionEnd]);

  const api = useMemo(
    () =>
      createHttpClient({
        getToken: () => localStorage.getItem(STORAGE.token),
        setToken: (token) => localStorage.setItem(STORAGE.token, token),
        onSessionEnd: endSession,
      }),
    [endSession],
  );

  useEffect(() => {
    if (!localStorage.getItem(STORAGE.token)) return;
    if (startedWithBootAnswer.current) {
      // Taken as the first state: used once (a provider mounted again, after a sign-out, asks anew).
      startedWithBootAnswer.current = false;
      bootAnswer = null;
      bootUser = null;
      return;
    }
    let cancelled = false;
    const request = bootUser ? bootUser.catch(() => api.get<PresentedUser>('/auth/me')) : api.get<PresentedUser>('/auth/me');
    request
      .then(
        (me) => {
          // The user and the end of loading in one update: the route guard never sees one without the other.
          if (!cancelled) {
            setUser(me);
            setLoading(false);
          }
        },
        () => {
          // 401 and failed refreshes already ended the session; anything else (server down) leaves it for a retry.
          if (!cancelled) setLoading(false);
        },
      )
      .finally(() => {
        bootUser = null;
        bootAnswer = null;
      });
    return () => {
      cancelled = true;
    };
  }, [api]);

  const signIn = useCallback(
    async (email: string, password: string, options: { billing?: boolean; code?: string } = {}) => {
      const body = { email, password, ...(options.billing ? { billing: true } : {}), ...(options.code === undefined ? {} : { code: options.code }) };
      const answer = await api.post<{ token: string; user: PresentedUser } | { twoFactorRequired: true }>('/auth/login', body);
      if ('twoFactorRequired' in answer) return { twoFactorRequired: true as const };
      const session = answer;
      localStorage.setItem(STORAGE.token, session.token);
      localStorage.setItem(STORAGE.companyId, String(session.user.companyId));
      localStorage.setItem(STORAGE.userId, String(session.user.id));
      writePreloadHint();
      forgetSessionEnd();
      // The spec's cshow flag, kept for clients that read it; the plan opens the campaign area (arch "Campaign area").
      const campaigns = session.user.company?.settings.find((s) => s.key === 'campaignsEnabled')?.value === 'true';
      if (campaigns) localStorage.setItem(STORAGE.campaignsFlag, 'true');
      else localStorage.removeItem(STORAGE.campaignsFlag);
      // The user's own language follows them to any browser; without one, the company's, unless this
      // browser has a language chosen in it (DECISIONS §1).
      const company = supportedLanguage(session.user.company?.settings.find((s) => s.key === 'language')?.value);
      const language = supportedLanguage(session.user.language) ?? (localStorage.getItem(STORAGE.language) ? null : company);
      if (language && language !== i18next.language) changeLanguage(language);
      // One update: the public-route guard sends the new session to /tickets.
      setLanding(options.billing ? '/financeiro' : '/tickets');
      setUser(session.user);
      return session.user;
    },
    [api],
  );

  const reloadUser = useCallback(async () => {
    if (!localStorage.getItem(STORAGE.token)) return null;
    const me = await api.get<PresentedUser>('/auth/me');
    setUser(me);
    return me;
  }, [api]);

  const signOut = useCallback(async () => {
    await api.delete('/auth/logout').catch(() => undefined);
    clearSessionStorage();
    writePreloadHint();
    setLanding('/');
    setUser(null);
  }, [api]);

  // Set while rendering, before the pages below read it: every date they show is in the company's zone.
  setDisplayTimeZone(user?.company?.timezone);

  const value = useMemo(
    () => ({ api, user, loading, landing, signIn, signOut, setUser, reloadUser, endSession }),
    [api, user, loading, landing, signIn, signOut, reloadUser, endSession],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The company's time zone (dates are shown and typed in it), else the browser's before sign-in. */
export function useCompanyTimeZone(): string {
  const { user } = useSession();
  return user?.company?.timezone || browserTimeZone();
}

export function useApi(): HttpClient {
  return useSession().api;
}
