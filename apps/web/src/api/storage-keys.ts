/** Browser storage keys (spec part 1 §4, part 2 §2.21). */
export const STORAGE = {
  token: 'token',
  companyId: 'companyId',
  userId: 'userId',
  language: 'i18nextLng',
  theme: 'preferredTheme',
  volume: 'volume',
  campaignsFlag: 'cshow',
  todos: 'todos',
  sign: 'signOption',
} as const;

/** What ends a session in this browser: the token and the company id (spec part 1 §4). */
export function clearSessionStorage(): void {
  localStorage.removeItem(STORAGE.token);
  localStorage.removeItem(STORAGE.companyId);
  localStorage.removeItem(STORAGE.userId);
}

/** Why this browser's last session was ended by someone else, shown on the login page until dismissed. */
export type SessionEndReason = 'usedElsewhere' | 'ended';

const SESSION_END_KEY = 'sessionEndReason';

/** Kept in sessionStorage: it survives the reload to /login (and `localStorage.clear()`), not the tab. */
export function rememberSessionEnd(reason: SessionEndReason): void {
  sessionStorage.setItem(SESSION_END_KEY, reason);
}

export function sessionEndReason(): SessionEndReason | null {
  const value = sessionStorage.getItem(SESSION_END_KEY);
  return value === 'usedElsewhere' || value === 'ended' ? value : null;
}

export function forgetSessionEnd(): void {
  sessionStorage.removeItem(SESSION_END_KEY);
}
