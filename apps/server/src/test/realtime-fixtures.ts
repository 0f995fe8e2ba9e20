import type { Profile } from '@atende/shared';
import { AppError } from '../platform/http/app-error.js';
import type { Authenticate, CompanyAccess, RequestContext } from '../platform/http/context.js';

/** A signed-in user without a database: what `authenticate` would resolve. */
export function fakeContext(companyId: number, userId: number, profile: Profile = 'user'): RequestContext {
  return {
    companyId,
    user: {
      id: userId,
      companyId,
      name: `User ${userId}`,
      email: `user${userId}@company${companyId}.test`,
      profile,
      super: false,
      allTicket: 'desabled',
      tokenVersion: 0,
      queueIds: [],
    },
    company: {
      id: companyId,
      name: `Company ${companyId}`,
      dueDate: null,
      status: true,
      timezone: 'America/Sao_Paulo',
      // The socket server never reads plan flags.
      plan: { id: 1, users: 10, connections: 10, queues: 10 } as CompanyAccess['plan'],
    },
  };
}

/** Tokens are the keys of the map; 'expired' answers like an expired access token (403). */
export function fakeAuthenticate(sessions: Record<string, RequestContext>): Authenticate {
  return async (token) => {
    if (token === 'expired') throw new AppError('ERR_SESSION_EXPIRED', 403);
    const ctx = sessions[token];
    if (!ctx) throw new AppError('ERR_SESSION_EXPIRED', 401);
    return ctx;
  };
}
