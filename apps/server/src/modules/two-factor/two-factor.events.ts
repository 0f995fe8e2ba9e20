import type { Platform } from '../../platform/platform.js';

/**
 * The company's "require two-factor" switch changes what its sessions may reach: every
 * node forgets the company's cached sessions at once (a user without a second factor is
 * limited to setting one up from the next request; a socket already open ends at its next
 * token renewal, which is refused).
 */
export function subscribeTwoFactorEvents({ events, access }: Pick<Platform, 'events' | 'access'>): void {
  events.on('setting.updated', ({ companyId, setting }) => {
    if (setting.key === 'requireTwoFactor') void access.changed({ companyId });
  });
}
