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
