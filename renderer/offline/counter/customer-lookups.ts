/**
 * Finding customers and opening one, service first: from the cache when the service cannot
 * be reached, saying so (`source`, and how complete the cache's answer is). The service's
 * answers are written through to the cache behind the answer.
 */
import type { BridgeError } from '../../../common/contract';
import { isUnreachable } from '../connection/failure-kinds';
import { PAGE_SIZE, type CacheSearchResult } from '../cache/customer-cache';
import { LOCAL_ID_PREFIX } from '../db/schema';
import { withUncachedBlank } from '../customers/prepared-customers';
import { parseQuery } from '../search/search-index';
import { CounterPart, type CounterDeps } from './counter-part';
import { NOT_CACHED_CUSTOMER, type CustomerLookup, type CustomerSearch } from './outcomes';
import type { ShopLedgerAsks } from './shop-ledger-asks';

export class CustomerLookups extends CounterPart {
  constructor(
    deps: CounterDeps,
    private readonly shop: ShopLedgerAsks,
  ) {
    super(deps);
  }

  /** Find customers by phone, name words or part of a number; from the cache when offline. */
  async searchCustomers(text: string, page = 1): Promise<CustomerSearch> {
    if (this.offlineNow()) return this.searchOffline(text, page);
    const query = parseQuery(text, this.settings().defaultCountry);
    const base = { page, per_page: PAGE_SIZE };
    const payload =
      query.kind === 'phone'
        ? { ...base, phone: query.e164 }
        : query.kind === 'digits'
          ? { ...base, search: query.digits }
          : query.kind === 'name'
            ? { ...base, search: text.trim() }
            : base;
    let result = await this.api.searchCustomers(payload);
    // As offline: a complete number nobody has exactly is still worth a digit search.
    if (result.ok && query.kind === 'phone' && result.data.length === 0) {
      result = await this.api.searchCustomers({ ...base, search: query.digits });
    }
    if (result.ok) {
      const customers = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a page of search results', () => this.cache.putCustomers(customers, fetchedAt));
      return { ok: true, source: 'service', customers, meta: result.meta };
    }
    if (isUnreachable(result.error)) return this.searchOffline(text, page);
    return { ok: false, error: result.error };
  }

  /** One customer with the rewards awaiting redemption; from the cache when offline. */
  async getCustomer(id: string): Promise<CustomerLookup> {
    const notReachable: BridgeError = { kind: 'offline', code: NOT_CACHED_CUSTOMER, message: NOT_CACHED_CUSTOMER };
    if (id.startsWith(LOCAL_ID_PREFIX) || this.offlineNow()) return this.lookupOffline(id, notReachable);
    const result = await this.api.getCustomer({ id });
    if (result.ok) {
      const customer = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a customer and their rewards', () =>
        this.cache.putCustomerWithRewards(customer, fetchedAt),
      );
      return {
        ok: true,
        source: 'service',
        customer,
        cachedAt: fetchedAt,
        // Pending marks live on the rewards table, which the refresh never writes: a quick read.
        pendingCodes: await this.pendingCodesOf(id),
        localOnly: false,
        claimedElsewhere: await this.shop.holdersOf(customer.rewards ?? []),
      };
    }
    if (isUnreachable(result.error)) return this.lookupOffline(id, result.error);
    return { ok: false, error: result.error };
  }

  private async searchOffline(text: string, page: number): Promise<CustomerSearch> {
    const found: CacheSearchResult = await this.afterWrites(() => this.cache.search(text, page, PAGE_SIZE));
    return {
      ok: true,
      source: 'cache',
      customers: found.customers.map(({ id, name, phone, cards }) => ({ id, name, phone, cards })),
      meta: { current_page: found.page, last_page: found.lastPage, per_page: found.perPage, total: found.total },
      cache: { of: found.cacheOf, complete: found.complete, capped: found.capped },
    };
  }

  private async lookupOffline(id: string, error: BridgeError): Promise<CustomerLookup> {
    const cached = await this.afterWrites(() => this.cache.getCustomer(id));
    if (!cached) return { ok: false, error };
    const rewards = cached.rewards.map((row) => row.reward);
    return {
      ok: true,
      source: 'cache',
      // What the cache does not keep (an email, a birthday…) shows as unknown until the service answers.
      customer: { ...withUncachedBlank(cached.record.customer), rewards },
      cachedAt: cached.record.fetchedAt,
      pendingCodes: cached.rewards.filter((row) => row.pendingOutboxSeq !== undefined).map((row) => row.code),
      localOnly: cached.record.localOnly === true,
      claimedElsewhere: await this.shop.holdersOf(rewards),
    };
  }

  private async pendingCodesOf(customerId: string): Promise<string[]> {
    return (await this.cache.rewardsOf(customerId))
      .filter((row) => row.pendingOutboxSeq !== undefined)
      .map((row) => row.code);
  }
}
