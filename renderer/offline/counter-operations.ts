/**
 * What the cashier does at the counter, service first: each operation asks the service and
 * falls back to the cache (or the outbox) when it cannot be reached, saying which one
 * answered (`source`). Everything the service returns is written through to the cache
 * behind the answer (customers/write-behind.ts): the cashier never waits for IndexedDB,
 * which may be busy with the background refresh. Reads that answer from the cache first let
 * the queued writes finish, so they see them.
 *
 * A redeem whose outcome is unknown (no answer, a 5xx, an answer that cannot be read) is
 * recorded in the outbox at once and settled by the replayer; a 2xx is always "redeemed"
 * (docs/service-reading.md).
 *
 * The answers are reasons and data, never words: the view layer words them
 * (lib/counter-words.ts).
 */
import { CustomerLookups } from './counter/customer-lookups';
import { RegisterAndCorrect } from './counter/register-and-correct';
import type { CounterDeps } from './counter/counter-part';
import type { RedeemInput } from './counter/outcomes';
import { Redemptions } from './counter/redemptions';
import { ShopLedgerAsks } from './counter/shop-ledger-asks';
import type { RegisterCustomerPayload, UpdateCustomerPayload } from '../../common/contract';

export type { CounterDeps, CounterSettings } from './counter/counter-part';
export {
  NOT_CACHED_CUSTOMER,
  type CacheNote,
  type CustomerLookup,
  type CustomerSearch,
  type RedeemInput,
  type RedeemOutcome,
  type RegisterOutcome,
  type RewardCheck,
} from './counter/outcomes';

/**
 * The counter's parts behind one object: customers found and opened, rewards checked and
 * redeemed, customers registered and corrected, each asking the shop's ledger where it must.
 */
export class CounterOperations {
  private readonly shop: ShopLedgerAsks;
  private readonly lookups: CustomerLookups;
  private readonly redemptions: Redemptions;
  private readonly writes: RegisterAndCorrect;

  constructor(deps: CounterDeps) {
    this.shop = new ShopLedgerAsks(deps);
    this.lookups = new CustomerLookups(deps, this.shop);
    this.redemptions = new Redemptions(deps, this.shop);
    this.writes = new RegisterAndCorrect(deps);
  }

  /** Find customers by phone, name words or part of a number; from the cache when offline. */
  searchCustomers(text: string, page = 1) {
    return this.lookups.searchCustomers(text, page);
  }

  /** One customer with the rewards awaiting redemption; from the cache when offline. */
  getCustomer(id: string) {
    return this.lookups.getCustomer(id);
  }

  /** Check a code, the shop's other tills asked too; offline, from the cached rewards, saying so. */
  checkReward(code: string, phone: string) {
    return this.redemptions.checkReward(code, phone);
  }

  /** Redeem after the order is settled; offline (or when the answer is lost) it is queued. */
  redeemReward(input: RedeemInput) {
    return this.redemptions.redeemReward(input);
  }

  /** Tells the shop again of every redemption still waiting in this till's outbox. */
  announcePending() {
    return this.shop.announcePending();
  }

  /** Register (idempotent by phone); offline it is queued and the customer usable at once. */
  registerCustomer(payload: RegisterCustomerPayload) {
    return this.writes.registerCustomer(payload);
  }

  /** Corrections need the service (they are not queued); the answer is written through. */
  updateCustomer(payload: UpdateCustomerPayload) {
    return this.writes.updateCustomer(payload);
  }
}
