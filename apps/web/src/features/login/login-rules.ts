/** The shared login rules, on their own so that the login page can load them (and zod) on first use. */
export { LoginBody } from '@atende/shared';
