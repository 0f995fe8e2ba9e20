import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import { contacts, settings, whatsapps, type WhatsappRow } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { inTenant } from '../platform/db/tenant.js';

/** Sessions the supervisors should run: every connection of these providers (the supervisor skips the disconnected ones). */
export async function wantedSessions(db: DbOrTx, providers: readonly string[]): Promise<Pick<WhatsappRow, 'id' | 'companyId' | 'status' | 'providerConfig'>[]> {
  return db
    .select({ id: whatsapps.id, companyId: whatsapps.companyId, status: whatsapps.status, providerConfig: whatsapps.providerConfig })
    .from(whatsapps)
    .where(inArray(whatsapps.provider, [...providers]));
}

/** The session (re)starts under a new epoch: OPENING, no QR code, no retries. */
export async function openSessionEpoch(db: DbOrTx, ref: TenantScope & { whatsappId: number }, epoch: string): Promise<void> {
  await db
    .update(whatsapps)
    .set({
      status: 'OPENING',
      qrcode: '',
      retries: 0,
      providerConfig: sql`${whatsapps.providerConfig} || ${JSON.stringify({ sessionEpoch: epoch })}::jsonb`,
      updatedAt: sql`now()`,
    })
    .where(inTenant(whatsapps, ref, eq(whatsapps.id, ref.whatsappId)));
}

/** The user disconnected the session: DISCONNECTED, no QR code, no retries. */
export async function disconnectSession(db: DbOrTx, ref: TenantScope & { whatsappId: number }): Promise<void> {
  await db
    .update(whatsapps)
    .set({ status: 'DISCONNECTED', qrcode: '', retries: 0, updatedAt: sql`now()` })
    .where(inTenant(whatsapps, ref, eq(whatsapps.id, ref.whatsappId)));
}

/** The company's stored values of these settings (absent keys are left out). */
export async function settingValues(db: DbOrTx, scope: TenantScope, keys: string[]): Promise<{ key: string; value: string }[]> {
  return db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inTenant(settings, scope, inArray(settings.key, keys)));
}

/** The contact with number `from` takes `newNumber`, unless another contact of the company already has it. */
export async function moveContactNumber(db: DbOrTx, scope: TenantScope, from: string, newNumber: string): Promise<void> {
  await db.execute(sql`
    update contacts set number = ${newNumber}, updated_at = now()
    where company_id = ${scope.companyId} and number = ${from}
      and not exists (select 1 from contacts other where other.company_id = ${scope.companyId} and other.number = ${newNumber})`);
}

/** Whether the company's contact with this number is a group. */
export async function isGroupContact(db: DbOrTx, scope: TenantScope, number: string): Promise<boolean> {
  const [contact] = await db
    .select({ isGroup: contacts.isGroup })
    .from(contacts)
    .where(inTenant(contacts, scope, eq(contacts.number, number)))
    .limit(1);
  return contact?.isGroup ?? false;
}
