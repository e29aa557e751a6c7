/**
 * The cashier's searches as background work sees them: whether one runs, when the last
 * ended, the usual pause between them, and the background write a search may roll back.
 * The index load and the refresh make way by it: a search queues behind at most the one
 * write already running, and writes are fitted to the cashier's pauses.
 */

/** A cashier who has not searched for this long is not at the till's search: background work need not make way. */
export const CASHIER_ACTIVE_MS = 1_000;

/** A background write a search may roll back (see `WriteOptions.interruptible`). */
export interface InterruptibleWrite {
  transaction: { abort(): void } | null;
  aborted: boolean;
  /** Its last round (the writes) is sent: from now on a search waits for it. */
  writesSent: boolean;
  /** A search came while it ran (counted once). */
  metBySearch: boolean;
  /**
   * The cashier's own work (`hold`) began while it ran: a write that grows part by part sends
   * no more parts, so what the cashier waits behind is what is already sent.
   */
  cashierWaits: boolean;
}

export class SearchRhythm {
  /** Searches in progress: the index load waits for them between pages (the cashier comes first). */
  private activeSearches = 0;
  /** The cashier's other work of IndexedDB in progress (`hold`): background writes wait for it too. */
  private holds = 0;
  /** When the last search ended (monotonic ms), so background writers can tell a cashier at work. */
  private lastSearchEndedAt = Number.NEGATIVE_INFINITY;
  private idleWaiters: (() => void)[] = [];
  /**
   * A moving average of the pause between one search's end and the next one's start
   * (pauses under CASHIER_ACTIVE_MS), for background writers to fit their transactions
   * between searches.
   */
  private typicalPauseMs: number | null = null;
  private searchEndWaiters: (() => void)[] = [];
  /** The interruptible background write in progress, if any. */
  private interruptible: InterruptibleWrite | null = null;
  private metBackgroundWrites = 0;

  /** Runs a cashier's search that reads IndexedDB, counting it as the cashier's. */
  async during<T>(search: () => Promise<T>): Promise<T> {
    const pause = performance.now() - this.lastSearchEndedAt;
    if (this.activeSearches === 0 && pause < CASHIER_ACTIVE_MS) {
      this.typicalPauseMs = this.typicalPauseMs === null ? pause : 0.7 * this.typicalPauseMs + 0.3 * pause;
    }
    this.activeSearches += 1;
    try {
      return await search();
    } finally {
      this.activeSearches -= 1;
      this.lastSearchEndedAt = performance.now();
      this.resolveIfIdle();
      for (const resolve of this.searchEndWaiters.splice(0)) resolve();
    }
  }

  /**
   * Resolves when no cashier search is running. Background writers (the index load, the
   * refresh) wait on it before each transaction, so a search queues behind at most the one
   * already running.
   */
  whenSearchesIdle(): Promise<void> {
    if (this.activeSearches === 0 && this.holds === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs the cashier's own work of IndexedDB that is not a search (a redemption queued
   * offline): no background write begins until it is done, and one still reading what it
   * merges with is rolled back, so the cashier waits for at most the write already sending.
   * It is not a search: the rhythm that background work fits its pages and writes to (the
   * pause between searches, the writes a search met) does not count it, or every redemption
   * would shrink the fill's share of the cashier's pauses.
   *
   * What waited resumes in a task of its own, after the work's answer has reached its caller:
   * woken at once, the fill's next steps (a page prepared, a part planned) would run as
   * microtasks ahead of the caller's, and "Queued" would wait for them.
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.holds += 1;
    if (this.interruptible) this.interruptible.cashierWaits = true;
    this.rollBackReadingWrite();
    try {
      return await work();
    } finally {
      this.holds -= 1;
      setTimeout(() => {
        this.resolveIfIdle();
        if (this.holds === 0) for (const resolve of this.searchEndWaiters.splice(0)) resolve();
      }, 0);
    }
  }

  private resolveIfIdle(): void {
    if (this.activeSearches === 0 && this.holds === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /**
   * Milliseconds until the cashier's next search is expected, going by their rhythm: 0
   * while one runs, null when none is expected (no search in the last CASHIER_ACTIVE_MS).
   */
  expectedSearchIn(): number | null {
    if (this.activeSearches > 0 || this.holds > 0) return 0;
    const since = performance.now() - this.lastSearchEndedAt;
    if (since >= CASHIER_ACTIVE_MS || this.typicalPauseMs === null) return null;
    return Math.max(0, this.typicalPauseMs - since);
  }

  /** The cashier's usual pause between searches (ms), or null until they have paused once. */
  get typicalSearchPause(): number | null {
    return this.typicalPauseMs;
  }

  /** Resolves when the next search ends, or once the cashier counts as idle (no search for CASHIER_ACTIVE_MS). */
  nextSearchEnd(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, CASHIER_ACTIVE_MS);
      this.searchEndWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Background writes a search came upon, and waited for or rolled back: the refresh
   * watches this to learn how much of the cashier's pauses it can safely take.
   */
  get backgroundWritesMetBySearch(): number {
    return this.metBackgroundWrites;
  }

  /** A background write that a search may roll back starts (its transaction is open). */
  writeBegins(write: InterruptibleWrite): void {
    this.interruptible = write;
  }

  writeEnds(write: InterruptibleWrite): void {
    if (this.interruptible === write) this.interruptible = null;
  }

  /**
   * Rolls back the interruptible background write in progress, if it is still reading what
   * it merges with: the cashier comes first. One whose writes are sent is waited for.
   */
  interruptBackgroundWrite(): void {
    const write = this.interruptible;
    if (!write?.transaction || write.aborted) return;
    if (!write.metBySearch) this.metBackgroundWrites += 1;
    write.metBySearch = true;
    this.rollBackReadingWrite();
  }

  /** The interruptible background write, rolled back if it is still reading (not once its writes are sent). */
  private rollBackReadingWrite(): void {
    const write = this.interruptible;
    if (!write?.transaction || write.aborted || write.writesSent) return;
    try {
      write.transaction.abort();
      write.aborted = true;
    } catch {
      // Already committing: the cashier waits for that commit, which is nearly done.
    }
  }
}
