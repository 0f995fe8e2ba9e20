import { someErrorInChain } from '../error-chain.js';

/**
 * Whether an error means the database cannot be reached right now (stopped,
 * restarting, network gone, pool exhausted), as opposed to a bad query: such a
 * request answers 503 with Retry-After and the client tries again.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  // The embedded database's WebAssembly aborted for another reason than a full disk; it is being opened again (pglite-reopen.ts).
  'EMBEDDED_DATABASE_STOPPED',
]);
const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end',
];

function matches(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception) and 57P0x (admin/crash shutdown, cannot connect now);
    // 53300: too many connections.
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300') return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && UNREACHABLE_MESSAGES.some((text) => message.includes(text));
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return someErrorInChain(error, matches);
}
