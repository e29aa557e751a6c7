/**
 * Customers with everything a write derives from them computed beforehand (phone in E.164,
 * folded name words, the stored JSON), so that a writer does that work outside its
 * transaction: a cashier's read waits for a write transaction to end, so it should hold
 * only the IndexedDB work.
 */
import type { Customer } from '../../../common/contract';
import { toE164 } from '../../../common/phone';
import type { CachedCustomer } from '../db/schema';
import { nameWordsOf } from '../../../common/fold';

export interface PreparedCustomer {
  id: string;
  phoneE164: string;
  nameWords: string[];
  /** The service's record as the cache keeps it (`cachedRecord`): without `rewards`, nor what no offline feature uses. */
  record: Customer;
  /** `record` as JSON, compared with the stored record's. */
  json: string;
}

/**
 * Customers with everything the write derives from them computed, so a writer can do that
 * work outside its transaction (and split the list into short transactions).
 */
export class PreparedCustomers {
  constructor(readonly items: readonly PreparedCustomer[]) {}

  get length(): number {
    return this.items.length;
  }

  slice(from: number, to: number): PreparedCustomers {
    return new PreparedCustomers(this.items.slice(from, to));
  }

  /** Several lists as one, one entry per id (the last one wins). */
  static concat(lists: readonly PreparedCustomers[]): PreparedCustomers {
    if (lists.length === 1) return lists[0]!;
    const byId = new Map<string, PreparedCustomer>();
    for (const list of lists) {
      for (const item of list.items) {
        byId.delete(item.id);
        byId.set(item.id, item);
      }
    }
    return new PreparedCustomers([...byId.values()]);
  }
}

/** One entry per id (the last one wins): a write stores each customer once. */
export function prepareCustomers(customers: readonly Customer[]): PreparedCustomers {
  const byId = new Map<string, PreparedCustomer>();
  for (const customer of customers) {
    const record = cachedRecord(customer);
    byId.delete(customer.id);
    byId.set(customer.id, {
      id: customer.id,
      phoneE164: toE164(customer.phone),
      nameWords: nameWordsOf(customer.name),
      record,
      json: JSON.stringify(record),
    });
  }
  return new PreparedCustomers([...byId.values()]);
}

/** The row a prepared customer is stored as (its pk given when stored). */
export function newRow(item: PreparedCustomer, fetchedAt: string): CachedCustomer {
  return { id: item.id, phoneE164: item.phoneE164, nameWords: item.nameWords, customer: item.record, fetchedAt };
}

/**
 * The fields of a customer that no offline feature uses, so the cache does not keep them
 * (docs/privacy.md#the-offline-cache): offline the till finds a customer by name, phone or
 * card, shows their points and rewards, and redeems or registers; an email, a birthday, a
 * status, when they joined or last came are shown when the service answers, never from the
 * cache. (The rewards live in the rewards table.)
 */
export const NOT_CACHED = ['rewards', 'email', 'birthday', 'status', 'created_at', 'last_visit_at'] as const;

/** Whether a record still holds a field the cache does not keep (one written by an earlier version). */
export function holdsUncached(customer: Customer): boolean {
  return NOT_CACHED.some((field) => field in customer);
}

/**
 * A customer as the cache keeps it: the service's record without the fields above (left out,
 * not blanked: a million customers' `"email":null` is megabytes). Read back, they are absent;
 * `withUncachedBlank` gives a record the screens can show.
 */
export function cachedRecord(customer: Customer): Customer {
  const {
    rewards: _rewards,
    email: _email,
    birthday: _birthday,
    status: _status,
    created_at: _createdAt,
    last_visit_at: _lastVisitAt,
    ...kept
  } = customer;
  return kept as Customer;
}

/** A cached record as a customer the screens show: what the cache does not keep, unknown. */
export function withUncachedBlank(customer: Customer): Customer {
  const blank: Omit<Customer, 'id' | 'name' | 'phone' | 'cards'> = {
    email: null,
    birthday: null,
    status: '',
    created_at: null,
    last_visit_at: null,
  };
  return { ...blank, ...customer };
}
