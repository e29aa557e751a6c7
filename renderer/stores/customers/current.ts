import { ref } from 'vue';
import type { BridgeError, Card, Customer, Redemption, ShopClaimHolder } from '../../../common/contract';
import type { PhoneReading } from '../../../common/phone';
import { useConnectionStore } from '../connection';
import { useOfflineStore } from '../offline';
import type { useCustomerSearch } from './search';
import { wordedLookupError } from '../../lib/counter-words';

/** How many customers of this shift the empty Find screen offers again. */
export const RECENT_LIMIT = 6;

/** A customer served in this shift: enough to show and reopen them. Kept in memory only. */
export interface RecentCustomer {
  id: string;
  name: string;
  phone: string;
}

export type CustomerNotice = { kind: 'created' | 'existing' | 'saved' | 'queued'; text: string };

/** Where the customer on screen came from, when not straight from the service. */
export interface CustomerOrigin {
  source: 'service' | 'cache';
  /** When the service last returned this record: "from the cache of <time>". */
  cachedAt: string | null;
  /** Reward codes with a redemption queued on this till. */
  pendingCodes: string[];
  /** Registered while offline; the service does not know this customer yet. */
  localOnly: boolean;
  /** By reward code (upper case): another till of the shop redeemed it offline, not yet sent. */
  claimedElsewhere?: Record<string, ShopClaimHolder>;
}

/** What opening by phone needs of the search: it searches for the number and reads the answer. */
type PhoneSearch = Pick<ReturnType<typeof useCustomerSearch>, 'query' | 'search' | 'results' | 'searchError'>;

/**
 * The customers store's one customer: the one on screen, where it came from, the shift's
 * recent ones, and the ways a customer is opened (from the list, a phone, a card).
 */
export function useCurrentCustomer(finder: PhoneSearch) {
  const connection = useConnectionStore();
  const offline = useOfflineStore();

  const current = ref<Customer | null>(null);
  const loadingCustomer = ref(false);
  const customerError = ref<BridgeError | null>(null);
  const notice = ref<CustomerNotice | null>(null);
  const origin = ref<CustomerOrigin | null>(null);
  /** Newest first; never written to disk, so it is gone when the app closes. */
  const recent = ref<RecentCustomer[]>([]);

  function remember(customer: Customer): void {
    const entry = { id: customer.id, name: customer.name, phone: customer.phone };
    recent.value = [entry, ...recent.value.filter((other) => other.id !== customer.id)].slice(0, RECENT_LIMIT);
  }

  async function open(id: string): Promise<boolean> {
    loadingCustomer.value = true;
    customerError.value = null;
    try {
      const result = await offline.services().getCustomer(id);
      if (!result.ok) {
        connection.noteFailure(result.error);
        customerError.value = wordedLookupError(result.error);
        return false;
      }
      if (result.source === 'service') connection.noteSuccess();
      // "Registered" or "saved" belongs to the customer it was said about, not the next one opened.
      if (current.value?.id !== result.customer.id) notice.value = null;
      current.value = result.customer;
      remember(result.customer);
      origin.value = {
        source: result.source,
        cachedAt: result.cachedAt,
        pendingCodes: result.pendingCodes,
        localOnly: result.localOnly,
        claimedElsewhere: result.claimedElsewhere,
      };
      return true;
    } finally {
      loadingCustomer.value = false;
    }
  }

  async function reloadCurrent(): Promise<boolean> {
    return current.value ? open(current.value.id) : false;
  }

  /**
   * A phone number was scanned or typed: find its customer. Returns 'opened' when exactly
   * one customer has it, 'none' when nobody does (the search box then offers to register),
   * 'error' when the service could not answer.
   */
  async function openByPhone(phone: PhoneReading): Promise<'opened' | 'none' | 'several' | 'error'> {
    finder.query.value = phone.international;
    await finder.search(1);
    if (finder.searchError.value) return 'error';
    const found = finder.results.value;
    if (found.length === 0) return 'none';
    if (found.length > 1) return 'several';
    const [only] = found;
    return only && (await open(only.id)) ? 'opened' : 'error';
  }

  /**
   * A loyalty card was scanned: open its holder (the service's search kept to that exact
   * serial, or the cache). 'several' when two customers hold it (the service's data is wrong).
   */
  async function openByCard(serial: string): Promise<'opened' | 'none' | 'several' | 'error'> {
    customerError.value = null;
    const found = await offline.services().findCardHolder(serial);
    if (!found.ok) {
      connection.noteFailure(found.error);
      customerError.value = found.error;
      return 'error';
    }
    if ('several' in found) return 'several';
    if (found.customerId === null) return 'none';
    return (await open(found.customerId)) ? 'opened' : 'error';
  }

  /**
   * After a redemption the service returns the card as it now is: show that, and drop the used
   * reward. Where its answer could not be read in full, the reward goes and the card stays as known.
   */
  function applyRedemption(redemption: Redemption, code: string): void {
    const customer = current.value;
    const customerId = redemption.reward?.customer_id ?? customer?.rewards?.find((r) => r.code === code)?.customer_id;
    if (!customer || customer.id !== customerId) return;
    const card = redemption.card;
    const cards = card ? customer.cards.map((held: Card) => (held.id === card.id ? card : held)) : customer.cards;
    const rewards = customer.rewards?.filter((reward) => reward.code !== code);
    current.value = { ...customer, cards, ...(rewards ? { rewards } : {}) };
  }

  /** A redemption was queued on this till: the reward stays on screen, marked pending. */
  function markPending(code: string): void {
    if (!origin.value || origin.value.pendingCodes.includes(code)) return;
    origin.value = { ...origin.value, pendingCodes: [...origin.value.pendingCodes, code] };
  }

  return {
    current,
    recent,
    loadingCustomer,
    customerError,
    notice,
    origin,
    open,
    reloadCurrent,
    openByPhone,
    openByCard,
    applyRedemption,
    markPending,
  };
}
