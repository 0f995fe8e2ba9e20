import type { TenantScope } from '../../platform/http/context.js';
import { defineJob } from '../../platform/jobs/jobs.js';
import type { Platform } from '../../platform/platform.js';
import type { ChannelGateway } from '../connections/channel-provider.js';
import { checkingConnection, checkProgress, markChecked, uncheckedItems } from './contact-lists.repo.js';

/** Numbers checked per job run before it queues its continuation. */
const CHECK_BATCH = 50;

/** One app's WhatsApp check of contact-list numbers: a durable job, made and registered by the composition root. */
export interface ContactListChecks {
  /** Queues the check of the list's unchecked numbers (one queued per list). */
  queue(scope: TenantScope, contactListId: number): Promise<void>;
}

export type ContactListChecksDeps = Pick<Platform, 'db' | 'events' | 'jobs'> & { channels: Pick<ChannelGateway, 'providerFor'> };

/** Checks a list's unchecked numbers on WhatsApp through the company's default connected connection, a batch per run. */
export function createContactListChecks(deps: ContactListChecksDeps): ContactListChecks {
  const job = defineJob<{ companyId: number; contactListId: number }>({
    name: 'contact-lists.check',
    options: { policy: 'short', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
    async handler({ companyId, contactListId }) {
      const scope: TenantScope = { companyId };
      const connection = await checkingConnection(deps.db, scope);
      // No connected number: the items stay unchecked (the icon says so) until one connects and the list changes.
      if (!connection) return;
      const provider = deps.channels.providerFor(connection);
      const batch = await uncheckedItems(deps.db, scope, contactListId, CHECK_BATCH);
      const results: { id: number; valid: boolean }[] = [];
      for (const item of batch) {
        const checked = await provider.checkNumber(connection, item.number).catch(() => null);
        if (checked) results.push({ id: item.id, valid: checked.exists });
      }
      await markChecked(deps.db, scope, results);
      const progress = await checkProgress(deps.db, scope, contactListId);
      deps.events.emit('contactList.checking', { companyId, contactListId, ...progress });
      deps.events.emit('contactListItem.reload', { companyId, contactListId });
      if (results.length > 0 && progress.unchecked > 0) await queue(scope, contactListId);
    },
  });
  const queue = async (scope: TenantScope, contactListId: number): Promise<void> => {
    await deps.jobs.send(job, { companyId: scope.companyId, contactListId }, { singletonKey: `${scope.companyId}:${contactListId}` });
  };
  deps.jobs.register(job);
  return { queue };
}
