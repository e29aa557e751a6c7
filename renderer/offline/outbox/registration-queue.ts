/**
 * A registration made while the service cannot be reached: checked as the service would
 * (a name, a complete phone, a birthday as a date), answered from the cache when the phone
 * is already a customer there (the phone is the identity), otherwise stored as a customer
 * of this till alone (`localOnly`, a `local-` id) together with its outbox item, in one
 * transaction. The replayer registers it with the service later (replayer.ts).
 */
import type { Customer, RegisterCustomerPayload } from '../../../common/contract';
import { digitsOf, readPhone, type PhoneReading } from '../../../common/phone';
import { addCustomerRow, customerTables } from '../customers/customer-blocks';
import type { CustomerCache } from '../cache/customer-cache';
import type { CachedCustomer, OfflineDb, RegistrationItem } from '../db/schema';
import { nameWordsOf } from '../../../common/fold';
import { newItemState } from './new-item';
import type { QueueFieldProblems } from './redemption-queue';

export type QueueRegistrationOutcome =
  | { ok: true; customer: CachedCustomer; queued: boolean; item?: RegistrationItem }
  | { ok: false; reason: 'invalid_input'; fields: QueueFieldProblems };

export async function queueRegistration(
  db: OfflineDb,
  cache: CustomerCache,
  payload: RegisterCustomerPayload,
  defaultCountry: string,
  { now, newLocalId, cashier = null }: { now: () => Date; newLocalId: () => string; cashier?: string | null },
): Promise<QueueRegistrationOutcome> {
  const name = payload.name.trim();
  const fields: QueueFieldProblems = {};
  if (name === '') fields.name = { problem: 'missing' };
  const phone = readRegistrationPhone(payload, defaultCountry);
  if (!phone) fields.phone = { problem: 'incomplete' };
  if (payload.birthday && !/^\d{4}-\d{2}-\d{2}$/.test(payload.birthday)) fields.birthday = { problem: 'not_a_date' };
  if (!phone || Object.keys(fields).length > 0) return { ok: false, reason: 'invalid_input', fields };
  const known = await cache.findByPhone(phone.e164);
  if (known) return { ok: true, customer: known, queued: false };

  const at = now().toISOString();
  const id = newLocalId();
  const customer: Customer = {
    id,
    name,
    phone: phone.international,
    email: payload.email?.trim() || null,
    birthday: payload.birthday || null,
    // Not a service status: the till's own word for "waiting to be registered".
    status: 'pending',
    cards: [],
    created_at: at,
    last_visit_at: null,
  };
  const row: CachedCustomer = {
    id,
    phoneE164: phone.e164,
    nameWords: nameWordsOf(name),
    customer,
    fetchedAt: at,
    localOnly: true,
  };
  const { stored, item } = await db.transaction('rw', [...customerTables(db), db.outbox], async () => {
    const pk = await addCustomerRow(db, row);
    const item: RegistrationItem = {
      kind: 'register',
      ...newItemState(at),
      name,
      phoneE164: phone.e164,
      email: customer.email,
      birthday: customer.birthday,
      customerPk: pk,
      localCustomerId: id,
      cashier,
    };
    const seq = await db.outbox.add(item);
    return { stored: { ...row, pk }, item: { ...item, seq } };
  });
  return { ok: true, customer: stored, queued: true, item };
}

/** The phone of a registration: local with its dialling code when one was given, else with the till's country. */
function readRegistrationPhone(payload: RegisterCustomerPayload, defaultCountry: string): PhoneReading | null {
  if (payload.country_code && !payload.phone.trim().startsWith('+')) {
    const national = digitsOf(payload.phone).replace(/^0+/, '');
    const reading = readPhone(`+${digitsOf(payload.country_code)}${national}`, defaultCountry);
    if (reading) return reading;
  }
  return readPhone(payload.phone, defaultCountry);
}
