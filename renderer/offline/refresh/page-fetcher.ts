/**
 * Asking the service for one page of the customer list, politely: conditional when a tag is
 * stored (a 304 has no body and needs no write), retried with back-off and jitter on
 * transient failures, honouring `Retry-After` on 429. It also keeps a running estimate of
 * how long a page takes to come, so the fill loop can ask when the answer will land between
 * the cashier's searches rather than in one. Pages come back parsed and prepared, unstored:
 * the writer (page-writer.ts) stores them.
 */
import type { TillApi } from '../../../common/contract';
import { backoffDelay, boundedRetryAfter, type BackoffPolicy } from '../connection/backoff';
import { isTransient } from '../connection/failure-kinds';
import type { RefreshCursor } from '../db/schema';
import { prepareCustomers, PreparedCustomers, type CustomerCache } from '../cache/customer-cache';
import { pageHash } from './page-hash';
import { StopRun } from './refresh-stop';

/** Weight of the latest page in the running estimate of how long a page takes to come. */
const ROUND_TRIP_WEIGHT = 0.2;

export interface FetchedPage {
  page: number;
  /** Parsed and folded by the fetcher, so the writer's transactions hold only IndexedDB work. */
  customers: PreparedCustomers;
  /** Of the customers as stored; with the stored one, tells an unchanged page without a read. */
  contentHash: string | null;
  fetchedAt: string;
  lastPage: number;
  total: number;
  /** The service's tag for this page, stored with it. */
  etag: string | null;
  /** A 304: the stored customers of this page are current; nothing to write. */
  unchanged: boolean;
  /** Customers on this page the till could not read (a 304's: as stored with its tag). */
  skipped: number;
}

/** What the fetcher knows of a page already stored: its tag is sent back, a 304 keeps the rest. */
export interface KnownPage {
  etag: string | null;
  skipped: number;
  cursor: RefreshCursor;
}

export interface PageFetcherOptions {
  api: Pick<TillApi, 'customerPage'>;
  /**
   * The cashier's rhythm, to tell when an answer would land in their next search, and to
   * prepare an answer only once the cashier's own work (a search, a redemption) is done.
   */
  cache: Pick<CustomerCache, 'expectedSearchIn' | 'whenSearchesIdle'>;
  perPage: number;
  now: () => Date;
  /** Whether the run was asked to stop: a failed page is then not tried again. */
  stopRequested: () => boolean;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  backoff?: BackoffPolicy;
  /** Tries of one page before the run stops (and resumes later from its cursor). */
  maxTriesPerPage?: number;
}

export class PageFetcher {
  private readonly api: Pick<TillApi, 'customerPage'>;
  private readonly cache: Pick<CustomerCache, 'expectedSearchIn' | 'whenSearchesIdle'>;
  private readonly perPage: number;
  private readonly now: () => Date;
  private readonly stopRequested: () => boolean;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly backoff: BackoffPolicy;
  private readonly maxTries: number;
  /** How long a page takes to come (ms), a running estimate; null until one has come. */
  private pageRoundTripMs: number | null = null;

  constructor(options: PageFetcherOptions) {
    this.api = options.api;
    this.cache = options.cache;
    this.perPage = options.perPage;
    this.now = options.now;
    this.stopRequested = options.stopRequested;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.backoff = options.backoff ?? { baseMs: 1_000, maxMs: 60_000 };
    this.maxTries = options.maxTriesPerPage ?? 5;
  }

  /**
   * Whether a page asked for now would be answered during the cashier's next search, going
   * by their rhythm and how long pages take. Handling an answer (the call's transport, then
   * parsing and preparing the page) takes the till's processor from that search: on a busy
   * two-core till, a fill that asked regardless made the slowest searches (those that met
   * no write) slower (docs/decisions/2026-11-24-pages-between-searches.md). Asked right
   * after a search instead, pages come while the cashier reads its answer, as the writes do.
   */
  answerWouldMeetSearch(): boolean {
    const room = this.cache.expectedSearchIn();
    return room !== null && this.pageRoundTripMs !== null && room < this.pageRoundTripMs;
  }

  /**
   * One page, with retries; returns it unstored (the writer stores it). With a stored tag
   * the request is conditional; a 304 keeps the cursor's page count and total.
   */
  async fetchPage(page: number, known: KnownPage | null): Promise<FetchedPage> {
    for (let tries = 1; ; tries++) {
      const asked = performance.now();
      const result = await this.api.customerPage({
        page,
        per_page: this.perPage,
        ...(known?.etag ? { if_none_match: known.etag } : {}),
      });
      this.observeRoundTrip(performance.now() - asked);
      if (result.ok && result.notModified) {
        if (!known) throw new StopRun({ reason: 'not_modified_unasked' });
        return {
          page,
          customers: new PreparedCustomers([]),
          contentHash: null,
          fetchedAt: this.now().toISOString(),
          lastPage: known.cursor.lastPage,
          total: known.cursor.total,
          etag: result.etag ?? known.etag,
          unchanged: true,
          skipped: known.skipped,
        };
      }
      if (result.ok) {
        // Preparing a page is the fill's longest piece of the page's thread: a redemption being
        // queued, or a search, would wait behind it for each of its requests.
        await this.cache.whenSearchesIdle();
        const customers = prepareCustomers(result.data);
        return {
          page,
          customers,
          contentHash: pageHash(customers.items.map((item) => item.json)),
          fetchedAt: this.now().toISOString(),
          lastPage: result.meta.last_page,
          total: result.meta.total,
          etag: result.etag ?? null,
          unchanged: false,
          skipped: result.skipped ?? 0,
        };
      }
      const { error } = result;
      if (!isTransient(error) || tries >= this.maxTries || this.stopRequested()) {
        throw new StopRun({ reason: 'call_failed', message: error.message });
      }
      let delay = backoffDelay(tries, this.backoff, this.random);
      delay = Math.max(delay, boundedRetryAfter(error.retryAfterMs));
      await this.sleep(delay);
    }
  }

  private observeRoundTrip(ms: number): void {
    this.pageRoundTripMs =
      this.pageRoundTripMs === null ? ms : (1 - ROUND_TRIP_WEIGHT) * this.pageRoundTripMs + ROUND_TRIP_WEIGHT * ms;
  }
}
