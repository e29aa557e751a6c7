import { randomUUID } from 'node:crypto';
import { rewardNotFound, rewardUnavailable, ServiceError } from './errors';
import {
  cardJson,
  formatPhone,
  isoTimestamp,
  rewardJson,
  rewardStatus,
  type CardRecord,
  type CustomerRecord,
  type PageMeta,
  type ProgramRecord,
  type RewardRecord,
  type SandboxData,
} from './model';
import { PageTags } from './page-tags';
import { foldText, foldWords, isNumberFragment } from './text-match';

export interface SearchQuery {
  /** E.164: an exact match. */
  phone?: string;
  /** Part of a name, or part of the digits of a number. */
  term?: string;
  page: number;
  perPage: number;
}

export interface NewCustomer {
  name: string;
  phone: string;
  email?: string;
  birthday?: string;
}

export interface CustomerPatch {
  name?: string;
  email?: string | null;
  birthday?: string | null;
}

export interface RedeemRequest {
  code: string;
  phone: string;
  branchId?: string;
  orderReference?: string;
}

/**
 * The stored records behind the wire forms, for a dialect that shows more of them than the
 * spec's fields (`dialect.ts`). Read-only: nothing changes through it.
 */
export interface StoredRecords {
  customer(id: string): Readonly<CustomerRecord> | undefined;
  card(id: string): Readonly<CardRecord> | undefined;
  program(id: string): Readonly<ProgramRecord> | undefined;
  /** The reward with its row number: 1 for the first reward stored, as an auto-increment key counts. */
  reward(code: string): { record: Readonly<RewardRecord>; row: number } | undefined;
}

export interface RedemptionRecord {
  code: string;
  customer_id: string;
  branch_id: string | null;
  order_reference: string | null;
  redeemed_at: string;
}

/**
 * The sandbox's data and every rule of the spec that changes it.
 *
 * Each operation reads and writes in one synchronous step (no `await` between the check and
 * the change), which is what makes a redemption atomic under any number of concurrent
 * requests in Node's single thread. Callers await `persist()` before answering so that an
 * acknowledged change is on disk when a data file is used.
 */
export class LoyaltyStore {
  private readonly customers: CustomerRecord[];
  private readonly customersById = new Map<string, CustomerRecord>();
  private readonly customerIdByPhone = new Map<string, string>();
  private readonly cardsById = new Map<string, CardRecord>();
  private readonly cardsByCustomer = new Map<string, CardRecord[]>();
  private readonly programsById = new Map<string, ProgramRecord>();
  private readonly rewardsByCode = new Map<string, RewardRecord>();
  private readonly rewardsByCustomer = new Map<string, RewardRecord[]>();
  /** Reward code (upper case) -> its place in the data, from 1: stable across restarts. */
  private readonly rewardRows = new Map<string, number>();
  private readonly redemptionLog: RedemptionRecord[] = [];
  /** Folded names, built on the first text search and kept current after that. */
  private foldedNames: Map<string, string> | null = null;
  /**
   * E.164 -> the international form shown, formatted once when the customer is stored (a
   * phone never changes: it is the identity), not for every page that lists them.
   */
  private readonly shownPhones = new Map<string, string>();
  private readonly pageTags = new PageTags();

  constructor(
    private readonly data: SandboxData,
    private readonly now: () => Date,
    readonly persist: () => Promise<void> = async () => undefined,
  ) {
    // Oldest first, then by id: the documented order, stable while new customers register.
    data.customers.sort(byDocumentedOrder);
    this.customers = data.customers;
    for (const program of data.programs) this.programsById.set(program.id, program);
    for (const customer of data.customers) this.indexCustomer(customer);
    for (const card of data.cards) this.indexCard(card);
    for (const reward of data.rewards) this.indexReward(reward);
  }

  readonly records: StoredRecords = {
    customer: (id) => this.customersById.get(id),
    card: (id) => this.cardsById.get(id),
    program: (id) => this.programsById.get(id),
    reward: (code) => {
      const record = this.rewardsByCode.get(code.toUpperCase());
      const row = this.rewardRows.get(code.toUpperCase());
      return record && row !== undefined ? { record, row } : undefined;
    },
  };

  snapshot(): SandboxData {
    return this.data;
  }

  programBySlug(slug: string): ProgramRecord | undefined {
    return this.data.programs.find((program) => program.slug === slug);
  }

  search(query: SearchQuery) {
    const matches = this.matching(query);
    const total = matches.length;
    const lastPage = Math.max(1, Math.ceil(total / query.perPage));
    const start = (query.page - 1) * query.perPage;
    const page = matches.slice(start, start + query.perPage);
    // Built once, and only when needed: for the body (not for a 304), and for the tag of a
    // customer whose digest is not known yet.
    let wire: ReturnType<LoyaltyStore['customerJson']>[] | undefined;
    const customers = () => (wire ??= page.map((customer) => this.customerJson(customer)));
    return {
      customers,
      meta: { current_page: query.page, last_page: lastPage, per_page: query.perPage, total } satisfies PageMeta,
      /** Changes whenever what the page shows changes, except `total` (see PageTags). */
      tag: this.pageTags.pageTag(page, lastPage, (index) => customers()[index]),
    };
  }

  getCustomer(id: string) {
    const customer = this.requireCustomer(id);
    const now = this.now();
    const rewards = (this.rewardsByCustomer.get(id) ?? [])
      .filter((reward) => rewardStatus(reward, now) === 'available')
      .sort((a, b) => a.earned_at.localeCompare(b.earned_at))
      .map((reward) => rewardJson(reward, now));
    return { ...this.customerJson(customer), rewards };
  }

  /** The phone is the identity: a known phone returns the existing customer, unchanged. */
  /** `changed` is false for a known phone that already has a card here: nothing to save. */
  register(
    input: NewCustomer,
    program: ProgramRecord,
  ): { created: boolean; changed: boolean; customer: ReturnType<LoyaltyStore['customerJson']> } {
    const existingId = this.customerIdByPhone.get(input.phone);
    if (existingId) {
      const existing = this.requireCustomer(existingId);
      const changed = this.ensureCard(existing, program);
      return { created: false, changed, customer: this.customerJson(existing) };
    }
    const now = isoTimestamp(this.now());
    const customer: CustomerRecord = {
      id: randomUUID(),
      name: input.name,
      phone: input.phone,
      email: input.email ?? null,
      birthday: input.birthday ?? null,
      status: 'active',
      created_at: now,
      last_visit_at: now,
    };
    // A new customer is the newest, so it goes at the end, except before any registered in
    // the same second with a greater id: the order stays the one a restart sorts into.
    let at = this.data.customers.length;
    while (at > 0 && byDocumentedOrder(this.data.customers[at - 1] as CustomerRecord, customer) > 0) at--;
    this.data.customers.splice(at, 0, customer);
    this.indexCustomer(customer);
    this.ensureCard(customer, program);
    return { created: true, changed: true, customer: this.customerJson(customer) };
  }

  update(id: string, patch: CustomerPatch) {
    const customer = this.requireCustomer(id);
    // Like an ORM's save, `updated_at` moves only when a value really changes: so it never
    // changes without a spec field the page tags cover (the laravel dialect shows it).
    const changes = (['name', 'email', 'birthday'] as const).some(
      (field) => patch[field] !== undefined && patch[field] !== customer[field],
    );
    if (patch.name !== undefined) customer.name = patch.name;
    if (patch.email !== undefined) customer.email = patch.email;
    if (patch.birthday !== undefined) customer.birthday = patch.birthday;
    if (changes) customer.updated_at = isoTimestamp(this.now());
    this.foldedNames?.set(customer.id, foldText(customer.name));
    this.pageTags.forget(customer.id);
    return this.customerJson(customer);
  }

  check(code: string, phone: string) {
    return rewardJson(this.ownedReward(code, phone), this.now());
  }

  redeem(request: RedeemRequest) {
    const reward = this.ownedReward(request.code, request.phone);
    const now = this.now();
    const status = rewardStatus(reward, now);
    if (status === 'redeemed') throw rewardUnavailable('This reward has already been redeemed.');
    if (status === 'expired') throw rewardUnavailable('This reward has expired.');
    const card = this.cardsById.get(reward.card_id);
    const program = card && this.programsById.get(card.program_id);
    if (!card || !program) throw new ServiceError(500, 'server_error', 'The reward has no card.');
    const price = reward.type === 'points' ? (reward.price ?? 0) : 0;
    if (card.points < price) {
      throw rewardUnavailable(`This reward costs ${price} points and the card has ${card.points}.`);
    }
    card.points -= price;
    this.pageTags.forget(card.customer_id);
    reward.redeemed_at = isoTimestamp(now);
    reward.branch_id = request.branchId ?? null;
    reward.order_reference = request.orderReference ?? null;
    this.redemptionLog.push({
      code: reward.code,
      customer_id: reward.customer_id,
      branch_id: reward.branch_id,
      order_reference: reward.order_reference,
      redeemed_at: reward.redeemed_at,
    });
    return { reward: rewardJson(reward, now), card: cardJson(card, program) };
  }

  /** Every redemption made since this store was opened, for tests and the benchmark. */
  redemptions(): RedemptionRecord[] {
    return this.redemptionLog.map((entry) => ({ ...entry }));
  }

  private matching(query: SearchQuery): CustomerRecord[] {
    let candidates = this.customers;
    if (query.phone !== undefined) {
      const id = this.customerIdByPhone.get(query.phone);
      const customer = id ? this.customersById.get(id) : undefined;
      candidates = customer ? [customer] : [];
    }
    const term = query.term?.trim();
    if (!term) return candidates;
    // A card's serial number is a number too ("part of a name or number", docs/sandbox.md).
    const serialOwners = this.serialOwners(term);
    if (isNumberFragment(term)) {
      const digits = term.replace(/\D+/g, '');
      // "050 123" is typed with the national trunk prefix, which E.164 does not carry.
      const withoutTrunk = digits.replace(/^0+/, '');
      return candidates.filter((customer) => {
        const phoneDigits = customer.phone.slice(1);
        return (
          phoneDigits.includes(digits) ||
          (withoutTrunk.length > 0 && phoneDigits.includes(withoutTrunk)) ||
          serialOwners.has(customer.id)
        );
      });
    }
    const words = foldWords(term);
    const names = this.folded();
    return candidates.filter((customer) => {
      const name = names.get(customer.id) ?? '';
      return words.every((word) => name.includes(word)) || serialOwners.has(customer.id);
    });
  }

  /**
   * The customers holding a card whose serial contains the term, case-insensitively: only for
   * a term of one word with a digit in it, which no name search is.
   */
  private serialOwners(term: string): Set<string> {
    if (/\s/.test(term) || !/\d/.test(term)) return new Set();
    const wanted = term.toUpperCase();
    const owners = new Set<string>();
    for (const card of this.cardsById.values())
      if (card.serial_number.toUpperCase().includes(wanted)) owners.add(card.customer_id);
    return owners;
  }

  private folded(): Map<string, string> {
    if (!this.foldedNames) {
      this.foldedNames = new Map(this.customers.map((customer) => [customer.id, foldText(customer.name)]));
    }
    return this.foldedNames;
  }

  private ownedReward(code: string, phone: string): RewardRecord {
    const reward = this.rewardsByCode.get(code.toUpperCase());
    const owner = reward && this.customersById.get(reward.customer_id);
    if (!reward || !owner || owner.phone !== phone) throw rewardNotFound();
    return reward;
  }

  private requireCustomer(id: string): CustomerRecord {
    const customer = this.customersById.get(id);
    if (!customer) throw new ServiceError(404, 'not_found', 'No customer with this id.');
    return customer;
  }

  /** Gives the customer a card in the programme unless they have one; true when it did. */
  private ensureCard(customer: CustomerRecord, program: ProgramRecord): boolean {
    const cards = this.cardsByCustomer.get(customer.id) ?? [];
    if (cards.some((card) => card.program_id === program.id)) return false;
    const card: CardRecord = {
      id: randomUUID(),
      customer_id: customer.id,
      program_id: program.id,
      serial_number: `${program.serialPrefix}-${String(this.data.cards.length + 1).padStart(8, '0')}`,
      status: 'active',
      visits: 0,
      points: 0,
      spent: 0,
      created_at: isoTimestamp(this.now()),
    };
    this.data.cards.push(card);
    this.indexCard(card);
    this.pageTags.forget(customer.id);
    return true;
  }

  private customerJson(customer: CustomerRecord) {
    return {
      id: customer.id,
      name: customer.name,
      phone: this.shownPhones.get(customer.phone) ?? formatPhone(customer.phone),
      email: customer.email,
      birthday: customer.birthday,
      status: customer.status,
      cards: (this.cardsByCustomer.get(customer.id) ?? []).map((card) => {
        const program = this.programsById.get(card.program_id);
        if (!program) throw new ServiceError(500, 'server_error', 'A card refers to an unknown programme.');
        return cardJson(card, program);
      }),
      created_at: customer.created_at,
      last_visit_at: customer.last_visit_at,
    };
  }

  private indexCustomer(customer: CustomerRecord): void {
    this.customersById.set(customer.id, customer);
    this.customerIdByPhone.set(customer.phone, customer.id);
    this.shownPhones.set(customer.phone, formatPhone(customer.phone));
    this.foldedNames?.set(customer.id, foldText(customer.name));
  }

  private indexCard(card: CardRecord): void {
    this.cardsById.set(card.id, card);
    const cards = this.cardsByCustomer.get(card.customer_id);
    if (cards) cards.push(card);
    else this.cardsByCustomer.set(card.customer_id, [card]);
  }

  private indexReward(reward: RewardRecord): void {
    this.rewardsByCode.set(reward.code.toUpperCase(), reward);
    this.rewardRows.set(reward.code.toUpperCase(), this.rewardRows.size + 1);
    const rewards = this.rewardsByCustomer.get(reward.customer_id);
    if (rewards) rewards.push(reward);
    else this.rewardsByCustomer.set(reward.customer_id, [reward]);
  }
}

/** The customers' documented order: oldest `created_at` first, then `id`. */
function byDocumentedOrder(a: CustomerRecord, b: CustomerRecord): number {
  return a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}
