import { sql } from 'drizzle-orm';
import type { AppServices } from '../app.js';
import type { TenantScope } from '../platform/http/context.js';

/**
 * The customer changed number (the channel said so): the company's contact
 * follows, unless the company already has a contact with the new number (then
 * both stay as they are, and the system line in the chat says what happened).
 */
export async function followNumberChange(services: Pick<AppServices, 'db'>, scope: TenantScope, from: string, newNumber: string): Promise<void> {
  if (!newNumber || newNumber === from) return;
  await services.db.execute(sql`
    update contacts set number = ${newNumber}, updated_at = now()
    where company_id = ${scope.companyId} and number = ${from}
      and not exists (select 1 from contacts other where other.company_id = ${scope.companyId} and other.number = ${newNumber})`);
}
