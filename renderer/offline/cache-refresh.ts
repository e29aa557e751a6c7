/**
 * The background refresh that fills the cache with the whole customer base, by paging
 * `GET /v1/customers?per_page=100` politely:
 * - a few pages in flight at once (bounded concurrency), each page written in one batch;
 * - back-off with jitter on errors, honouring `Retry-After` on 429;
 * - resumable: the highest page below which everything is stored is kept in `meta`, so a
 *   restart continues there (the service lists customers oldest first, so pages are stable
 *   while new customers register; they land on the last pages);
 * - observable: how many were fetched, of how many, and when the last complete refresh was.
 */
import type { BridgeError, TillApi } from '../../electron/contract';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { clearMeta, readMeta, writeMeta, type OfflineDb, type RefreshCursor } from './db';
import type { CustomerCache } from './customer-cache';
import { yieldToBrowser } from './index-loader';

export type RefreshState = 'idle' | 'running' | 'stopped';

export interface RefreshProgress {
  state: RefreshState;
  /** Pages stored in the current (or last) run, up to `lastPage`. */
  pagesDone: number;
  lastPage: number | null;
  /** Customers stored so far in the current refresh, counting pages from a resumed run. */
  fetched: number;
  /** The service's total when it last said. */
  total: number | null;
  lastCompleteRefreshAt: string | null;
  /** Why the last run stopped, in plain words. */
  stoppedBecause: string | null;
  /** When the last run stopped early (it resumes from its cursor). */
  stoppedAt: string | null;
  /** A refresh was left part-way (a cursor is stored): the next run continues it. */
  resumable: boolean;
}

/**
 * Whether a refresh should start now: never while one runs; a stopped one after a pause
 * (so a rejected key or a dead network is not hammered); a part-way one at once; otherwise
 * when the last complete refresh is older than `everyMs`.
 */
export function refreshDue(progress: RefreshProgress, now: Date, everyMs: number, retryAfterStopMs: number): boolean {
  if (progress.state === 'running') return false;
  if (progress.state === 'stopped' && progress.stoppedAt !== null) {
    return now.getTime() - Date.parse(progress.stoppedAt) >= retryAfterStopMs;
  }
  if (progress.resumable) return true;
  if (progress.lastCompleteRefreshAt === null) return true;
  return now.getTime() - Date.parse(progress.lastCompleteRefreshAt) >= everyMs;
}

export interface CacheRefreshOptions {
  api: Pick<TillApi, 'searchCustomers'>;
  db: OfflineDb;
  cache: CustomerCache;
  now?: () => Date;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  yieldToPage?: () => Promise<void>;
  /** Pages in flight at once. */
  concurrency?: number;
  perPage?: number;
  backoff?: BackoffPolicy;
  /** Tries of one page before the run stops (and resumes later from its cursor). */
  maxTriesPerPage?: number;
}

const RETRYABLE = new Set<BridgeError['kind']>(['offline', 'timeout', 'rate_limited', 'server', 'bad_response']);

class StopRun extends Error {}

export class CacheRefresh {
  private snapshot: RefreshProgress = {
    state: 'idle',
    pagesDone: 0,
    lastPage: null,
    fetched: 0,
    total: null,
    lastCompleteRefreshAt: null,
    stoppedBecause: null,
    stoppedAt: null,
    resumable: false,
  };
  private readonly listeners = new Set<(progress: RefreshProgress) => void>();
  private running: Promise<RefreshProgress> | null = null;
  private stopRequested = false;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly yieldToPage: () => Promise<void>;
  private readonly concurrency: number;
  private readonly perPage: number;
  private readonly backoff: BackoffPolicy;
  private readonly maxTries: number;

  constructor(private readonly options: CacheRefreshOptions) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.yieldToPage = options.yieldToPage ?? yieldToBrowser;
    this.concurrency = options.concurrency ?? 3;
    this.perPage = options.perPage ?? 100;
    this.backoff = options.backoff ?? { baseMs: 1_000, maxMs: 60_000 };
    this.maxTries = options.maxTriesPerPage ?? 5;
  }

  progress(): RefreshProgress {
    return { ...this.snapshot };
  }

  subscribe(listener: (progress: RefreshProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the last complete refresh from the database, for the header before any run. */
  async load(): Promise<RefreshProgress> {
    const last = await readMeta(this.options.db, 'lastCompleteRefresh');
    const cursor = await readMeta(this.options.db, 'refreshCursor');
    this.update({
      lastCompleteRefreshAt: last?.at ?? null,
      resumable: cursor !== undefined,
      ...(cursor ? { pagesDone: cursor.pagesDone, lastPage: cursor.lastPage, total: cursor.total } : {}),
    });
    return this.progress();
  }

  /** Runs (or resumes) a refresh; calling it while one runs returns the same run. */
  run(): Promise<RefreshProgress> {
    if (!this.running) {
      this.stopRequested = false;
      this.running = this.refresh().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** Stops after the pages in flight; the cursor keeps the place. */
  stop(): void {
    this.stopRequested = true;
  }

  private async refresh(): Promise<RefreshProgress> {
    const { db } = this.options;
    this.update({ state: 'running', stoppedBecause: null, stoppedAt: null });
    try {
      let cursor = await readMeta(db, 'refreshCursor');
      if (!cursor || cursor.perPage !== this.perPage) {
        const startedAt = this.now().toISOString();
        const first = await this.fetchPage(1);
        cursor = { startedAt, perPage: this.perPage, lastPage: first.lastPage, total: first.total, pagesDone: 1 };
        await writeMeta(db, 'refreshCursor', cursor);
        this.update({ resumable: true, pagesDone: 1, lastPage: cursor.lastPage, total: cursor.total, fetched: first.count });
      } else {
        this.update({ pagesDone: cursor.pagesDone, lastPage: cursor.lastPage, total: cursor.total, fetched: cursor.pagesDone * this.perPage });
      }
      await this.fetchRemaining(cursor);
      const total = this.snapshot.total ?? 0;
      await writeMeta(db, 'lastCompleteRefresh', { at: cursor.startedAt, total });
      await clearMeta(db, 'refreshCursor');
      this.update({
        state: 'idle',
        resumable: false,
        lastCompleteRefreshAt: cursor.startedAt,
        fetched: Math.min(this.snapshot.fetched, total),
      });
    } catch (error) {
      if (!(error instanceof StopRun)) throw error;
      this.update({ state: 'stopped', stoppedBecause: error.message, stoppedAt: this.now().toISOString() });
    }
    return this.progress();
  }

  /** Pages after the cursor, a few at a time; the cursor advances only over a gap-free prefix. */
  private async fetchRemaining(cursor: RefreshCursor): Promise<void> {
    let next = cursor.pagesDone + 1;
    const finished = new Set<number>();
    let failure: StopRun | null = null;
    const worker = async () => {
      while (failure === null && next <= cursor.lastPage) {
        if (this.stopRequested) {
          failure = new StopRun('The refresh was stopped.');
          return;
        }
        const page = next++;
        try {
          const result = await this.fetchPage(page);
          // New customers may add pages while we page: follow them.
          if (result.lastPage > cursor.lastPage) cursor.lastPage = result.lastPage;
          cursor.total = result.total;
          finished.add(page);
          while (finished.has(cursor.pagesDone + 1)) {
            finished.delete(cursor.pagesDone + 1);
            cursor.pagesDone += 1;
          }
          await writeMeta(this.options.db, 'refreshCursor', { ...cursor });
          this.update({
            pagesDone: cursor.pagesDone,
            lastPage: cursor.lastPage,
            total: cursor.total,
            fetched: this.snapshot.fetched + result.count,
          });
          await this.yieldToPage();
        } catch (error) {
          if (error instanceof StopRun) failure ??= error;
          else throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, worker));
    if (failure) throw failure;
  }

  /** One page, with retries; stores it and returns what the service said about the size. */
  private async fetchPage(page: number): Promise<{ lastPage: number; total: number; count: number }> {
    for (let tries = 1; ; tries++) {
      const result = await this.options.api.searchCustomers({ page, per_page: this.perPage });
      if (result.ok) {
        await this.options.cache.putCustomers(result.data, this.now().toISOString());
        return { lastPage: result.meta.last_page, total: result.meta.total, count: result.data.length };
      }
      const { error } = result;
      if (!RETRYABLE.has(error.kind) || tries >= this.maxTries || this.stopRequested) {
        throw new StopRun(error.message);
      }
      let delay = backoffDelay(tries, this.backoff, this.random);
      if (error.retryAfterMs !== undefined) delay = Math.max(delay, error.retryAfterMs);
      await this.sleep(delay);
    }
  }

  private update(patch: Partial<RefreshProgress>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    const snapshot = this.progress();
    for (const listener of this.listeners) listener(snapshot);
  }
}
