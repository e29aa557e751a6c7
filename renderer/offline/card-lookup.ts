/**
 * A loyalty card's serial number (scanned from its barcode or QR) to its holder: online, the
 * service's `search` is asked and its answer kept to the customers holding a card with exactly
 * that serial (the spec's search matches "part of a name or number", so it may find more);
 * the cache answers when the service has none, and whenever the service cannot be reached.
 * Which customer it is, not the customer itself: the caller opens them as any other.
 */
import type { BridgeError, Customer, TillApi } from '../../common/contract';
import { isUnreachable } from './connection/failure-kinds';
import type { CustomerCache } from './cache/customer-cache';
import { normaliseSerial } from './customers/serial-index';

export type CardLookup =
  | { ok: true; source: 'service' | 'cache'; customerId: string | null }
  /** Two customers hold a card with this serial: the cashier must choose. */
  | { ok: true; source: 'service'; customerId: null; several: true }
  | { ok: false; error: BridgeError };

/** The service's page size for this search: one serial is on one card, a page is plenty. */
const PER_PAGE = 20;

export function holdsSerial(customer: Pick<Customer, 'cards'>, serial: string): boolean {
  const wanted = normaliseSerial(serial);
  return customer.cards.some((card) => card.serial_number !== null && normaliseSerial(card.serial_number) === wanted);
}

export async function findCardHolder(
  deps: { api: TillApi; cache: CustomerCache; offlineNow: () => boolean },
  serial: string,
): Promise<CardLookup> {
  const fromCache = async (): Promise<CardLookup> => ({
    ok: true,
    source: 'cache',
    customerId: (await deps.cache.serials.find(serial))?.id ?? null,
  });
  if (deps.offlineNow()) return fromCache();
  const result = await deps.api.searchCustomers({ search: normaliseSerial(serial), page: 1, per_page: PER_PAGE });
  if (!result.ok) return isUnreachable(result.error) ? fromCache() : { ok: false, error: result.error };
  const holders = result.data.filter((customer) => holdsSerial(customer, serial));
  if (holders.length > 1) return { ok: true, source: 'service', customerId: null, several: true };
  if (holders.length === 1) return { ok: true, source: 'service', customerId: holders[0]!.id };
  // The service has none: a card registered on this till offline may still be in the cache.
  return fromCache();
}
