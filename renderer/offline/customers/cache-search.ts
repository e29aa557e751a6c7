/**
 * Offline search: the same kinds of answers as the service's search, from the cache.
 *
 * Search goes to the in-memory index once it has loaded; until then an exact phone is
 * found through the search chunks' phone digests, names are matched in the packed search
 * chunks, and a digit search answers from the part of the index already loaded, saying it
 * is incomplete. Neither path scans the customer blocks, which hold no phone index
 * (db/migrations/v8). The customers a page of results shows come from the listings in
 * memory (listings.ts) once those have loaded too: then a search reads nothing from
 * IndexedDB. Until then they are read from the blocks.
 */
import { firstCustomerPks, getCustomerRows } from './customer-reads';
import type { SearchRhythm } from '../pacing/search-rhythm';
import type { OfflineDb } from '../db/schema';
import { pagesInKeyOrder } from '../db/pages-in-key-order';
import { listingOf, type CustomerListing } from '../search/listings';
import type { ListingMemory } from '../search/listing-memory';
import { mayHoldPhone } from '../search/phone-digests';
import { linesOf, parseSearchLine } from '../search/search-chunks';
import { parseQuery, type IndexHits, type ParsedQuery, type SlimSearchIndex } from '../search/search-index';

/** Results per page, as the service's default. */
export const PAGE_SIZE = 20;
/** More matches than this ask the cashier to type more, rather than page through a crowd. */
export const MAX_RESULTS = 500;
/**
 * Search chunks (of 1,024 customers) a name search reads while the index loads before it
 * answers with what it found, saying it is incomplete: about 260,000 customers, a few
 * hundred milliseconds.
 */
const FALLBACK_CHUNK_LIMIT = 256;
const FALLBACK_CHUNKS_PER_READ = 16;
/** Phone digests (of 1,024 customers, 4 KB each) read per request by an exact phone while the index loads. */
const DIGESTS_PER_READ = 128;

export interface CacheSearchResult {
  /** What the results list shows of each customer of the page. */
  customers: CustomerListing[];
  page: number;
  perPage: number;
  /** Matches found, at most MAX_RESULTS. */
  total: number;
  lastPage: number;
  /** More than MAX_RESULTS matched. */
  capped: boolean;
  /** False while the answer may miss customers (the index is still loading). */
  complete: boolean;
  via: 'index' | 'fallback';
  query: ParsedQuery;
  /** The oldest fetch time among the customers shown: "from the cache of <time>". */
  cacheOf: string | null;
}

/** What the search asks of the cache it searches, as it is at the moment of asking. */
export interface SearchedCache {
  indexReady(): boolean;
  /** The start of the last complete refresh (`CustomerCache.confirmedAt`). */
  confirmedAt(): string | null;
  defaultCountry(): string;
}

export class CacheSearch {
  constructor(
    private readonly db: OfflineDb,
    private readonly index: SlimSearchIndex,
    private readonly listings: ListingMemory,
    private readonly rhythm: SearchRhythm,
    private readonly state: SearchedCache,
  ) {}

  /**
   * Offline search: the same kinds of answers as the service's search, from the cache.
   * Answered from memory whenever the index and the listings of the page's customers are
   * loaded; only a search that reads IndexedDB counts as the cashier's, whom background
   * writers make way for (`whenSearchesIdle`, `expectedSearchIn`).
   */
  async search(text: string, page = 1, perPage = PAGE_SIZE): Promise<CacheSearchResult> {
    const fromMemory = this.searchMemory(text, page, perPage);
    if (fromMemory) return fromMemory;
    return this.rhythm.during(() => this.searchNow(text, page, perPage));
  }

  /** The search answered from memory alone, or null when it must read IndexedDB. */
  private searchMemory(text: string, page: number, perPage: number): CacheSearchResult | null {
    if (!this.state.indexReady() || !this.listings.ready) return null;
    const query = parseQuery(text, this.state.defaultCountry());
    const hits = this.index.search(query, MAX_RESULTS);
    const customers = this.listings.getAll(pageOf(hits.pks, page, perPage));
    return customers && this.result(query, hits, { complete: true, via: 'index' }, page, perPage, customers);
  }

  private async searchNow(text: string, page: number, perPage: number): Promise<CacheSearchResult> {
    const query = parseQuery(text, this.state.defaultCountry());
    const ready = this.state.indexReady();
    // Before any read of what the refresh writes: the search must not queue behind its write.
    if (!ready) this.rhythm.interruptBackgroundWrite();
    const { hits, complete, via } = ready
      ? { hits: this.index.search(query, MAX_RESULTS), complete: true, via: 'index' as const }
      : await this.searchFallback(query);
    // The listings loaded so far are current (listing-memory.ts); the blocks give the rest.
    const pagePks = pageOf(hits.pks, page, perPage);
    const inMemory = pagePks.map((pk) => this.listings.get(pk));
    const toRead = pagePks.filter((_, i) => inMemory[i] === undefined);
    if (toRead.length > 0) this.rhythm.interruptBackgroundWrite();
    const read = new Map<number, CustomerListing>();
    for (const row of await getCustomerRows(this.db, toRead)) if (row) read.set(row.pk!, listingOf(row));
    const customers = pagePks.flatMap((pk, i) => inMemory[i] ?? read.get(pk) ?? []);
    return this.result(query, hits, { complete, via }, page, perPage, customers);
  }

  private result(
    query: ParsedQuery,
    hits: IndexHits,
    { complete, via }: Pick<CacheSearchResult, 'complete' | 'via'>,
    page: number,
    perPage: number,
    customers: CustomerListing[],
  ): CacheSearchResult {
    const total = hits.pks.length;
    const confirmed = this.state.confirmedAt();
    const cacheOf = customers.reduce<string | null>((oldest, listing) => {
      // A customer the complete refresh saw unchanged is as fresh as that refresh; a customer
      // registered offline is not known to the service, so only its own time counts.
      const asOf =
        confirmed !== null && !listing.localOnly && confirmed > listing.fetchedAt ? confirmed : listing.fetchedAt;
      return oldest === null || asOf < oldest ? asOf : oldest;
    }, null);
    return {
      customers,
      page,
      perPage,
      total,
      lastPage: Math.max(1, Math.ceil(total / perPage)),
      capped: hits.capped,
      complete,
      via,
      query,
      cacheOf,
    };
  }

  /**
   * While the in-memory index loads: exact phone through the search chunks' phone digests,
   * names from the search chunks (never the customer blocks), digits from the part of the
   * index loaded so far.
   */
  private async searchFallback(query: ParsedQuery): Promise<{ hits: IndexHits; complete: boolean; via: 'fallback' }> {
    const via = 'fallback' as const;
    switch (query.kind) {
      case 'all': {
        return { hits: capHits(await firstCustomerPks(this.db, MAX_RESULTS + 1)), complete: true, via };
      }
      case 'phone': {
        const pks = await this.pksWithPhone(query.e164);
        if (pks.length > 0) return { hits: { pks, capped: false, matched: 'exact_phone' }, complete: true, via };
        return {
          hits: { ...this.index.search({ kind: 'digits', digits: query.digits }, MAX_RESULTS), matched: 'digits' },
          complete: false,
          via,
        };
      }
      case 'digits':
        return { hits: this.index.search(query, MAX_RESULTS), complete: false, via };
      case 'name': {
        const { pks, complete } = await this.scanChunksForNames(query.terms);
        return { hits: capHits(pks), complete, via };
      }
    }
  }

  /**
   * Names while the index loads: the packed search lines (search-chunks.ts) in pk order,
   * until more than a page of results' worth (MAX_RESULTS) matched or FALLBACK_CHUNK_LIMIT
   * chunks were read with more left (then the answer says it is incomplete). Every term
   * must be a prefix of some word of the name, as in the index.
   */
  private async scanChunksForNames(terms: readonly string[]): Promise<{ pks: number[]; complete: boolean }> {
    // The longest term is the rarest substring, the cheapest first test of a chunk and a line.
    const probe = [...terms].sort((a, b) => b.length - a.length)[0] ?? '';
    const pks: number[] = [];
    let read = 0;
    for await (const chunks of pagesInKeyOrder(
      this.db.searchChunks,
      FALLBACK_CHUNKS_PER_READ,
      (chunk) => chunk.chunk,
    )) {
      for (const chunk of chunks) {
        if (!chunk.lines.includes(probe)) continue;
        for (const line of linesOf(chunk)) {
          if (!line.includes(probe)) continue;
          const fields = parseSearchLine(line);
          if (terms.every((term) => fields.nameWords.some((word) => word.startsWith(term)))) pks.push(fields.pk);
        }
        if (pks.length > MAX_RESULTS) return { pks, complete: true };
      }
      read += chunks.length;
      if (read >= FALLBACK_CHUNK_LIMIT) return { pks, complete: chunks.length < FALLBACK_CHUNKS_PER_READ };
    }
    return { pks, complete: true };
  }

  /**
   * The pks whose search line holds this E.164 phone, in pk order, while the index loads.
   * Every chunk's phone digest is read, however many: the phone is who the customer is (the
   * outbox's registrations ask it too), so this answer is never partial. Only the chunks
   * whose digest holds the number's hash are read, and their lines checked.
   */
  async pksWithPhone(phoneE164: string): Promise<number[]> {
    const digits = phoneE164.startsWith('+') ? phoneE164.slice(1) : '';
    if (digits === '') return [];
    const candidates: number[] = [];
    for await (const digests of pagesInKeyOrder(this.db.phoneDigests, DIGESTS_PER_READ, (digest) => digest.chunk)) {
      for (const digest of digests) if (mayHoldPhone(this.db, digest, digits)) candidates.push(digest.chunk);
    }
    const pks: number[] = [];
    for (const chunk of await this.db.searchChunks.bulkGet(candidates)) {
      for (const line of chunk ? linesOf(chunk) : []) {
        if (!line.includes(digits)) continue;
        const fields = parseSearchLine(line);
        if (fields.phoneE164 === phoneE164) pks.push(fields.pk);
      }
    }
    return pks;
  }
}

function pageOf(pks: readonly number[], page: number, perPage: number): number[] {
  return pks.slice((page - 1) * perPage, page * perPage);
}

function capHits(pks: number[]): IndexHits {
  return pks.length > MAX_RESULTS ? { pks: pks.slice(0, MAX_RESULTS), capped: true } : { pks, capped: false };
}
