/**
 * The page's side of the main process's copy of the outbox and the journal (docs/offline.md,
 * "Two copies of the queue"): every change the kept tables commit (db/kept-tables.ts) is sent
 * to the main process (`keepWork`), which flushes it to disk before it answers.
 *
 * - **In order.** Changes go in the order their transactions began, one `keepWork` at a time;
 *   whatever commits meanwhile goes together in the next one. A transaction still open holds
 *   back the ones begun after it (an item's later version must not overtake an earlier one).
 * - **Never given up.** A send that fails (the main process busy, the browser shell restarting)
 *   is tried again with back-off, with what came after it behind it. A change the main process
 *   refuses as invalid (a defect, not a moment) is reported and passed over, not retried for ever.
 * - **Awaited where a promise is made.** `flushed()` resolves once every change of a transaction
 *   begun before it was called is on the main process's disk: the outbox awaits it before the
 *   cashier is told "Queued", and the replayer before a request leaves.
 *
 * What a page that goes away leaves unsent is caught up when its database next opens
 * (copy-reconciliation.ts).
 */
import { backoffDelay } from '../../../common/backoff';
import type { TillApi, WorkChange } from '../../../common/contract';
import { MAX_WORK_CHANGES } from '../../../common/work-copy-contract';
import type { Timers } from '../connection/connection-monitor';
import type { KeptBatch, KeptRowChange, KeptWrites } from '../db/kept-tables';

/** The copy could not be reached in time: what was asked of it is not known to be on disk. */
export class NotKeptError extends Error {
  /** `reason`: the main process's own words, or why it could not be asked. */
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NotKeptError';
  }
}

interface Batch {
  changes: WorkChange[];
  state: 'open' | 'committed' | 'aborted';
  done: Promise<void>;
  settle(outcome: { refused?: string }): void;
}

export interface MainCopyOptions {
  api: Pick<TillApi, 'keepWork'>;
  timers: Timers;
  random?: () => number;
  /** How long `flushed()` waits by default before it gives up. */
  flushWaitMs?: number;
}

const RETRY = { baseMs: 500, maxMs: 15_000 };
export const DEFAULT_FLUSH_WAIT_MS = 10_000;

export class MainCopy implements KeptWrites {
  /** Batches not yet sent, in the order their transactions began. */
  private readonly waiting: Batch[] = [];
  private sending = false;
  private failures = 0;
  private retryTimer: unknown = null;
  private lastProblem = '';

  constructor(private readonly options: MainCopyOptions) {}

  began(): KeptBatch {
    let settle: Batch['settle'] = () => undefined;
    const batch: Batch = {
      changes: [],
      state: 'open',
      done: new Promise<void>((resolve, reject) => {
        settle = ({ refused }) => (refused === undefined ? resolve() : reject(new NotKeptError(refused)));
      }),
      settle: (outcome) => settle(outcome),
    };
    // Nobody may be waiting on a batch (write-behind journalling): its refusal is reported, not thrown.
    batch.done.catch(() => undefined);
    this.waiting.push(batch);
    return {
      add: (change) => batch.changes.push(workChangeOf(change)),
      committed: () => {
        batch.state = 'committed';
        this.pump();
      },
      aborted: () => {
        batch.state = 'aborted';
        batch.settle({});
        this.pump();
      },
    };
  }

  /**
   * Hands the copy changes no transaction of this page made (what reconciliation found it
   * lacked), in line with the rest; resolves once they are on disk.
   */
  handOver(changes: readonly WorkChange[]): Promise<void> {
    const batch = this.began();
    for (const change of changes) batch.add(keptRowChangeOf(change));
    batch.committed();
    return this.flushed();
  }

  /**
   * Resolves once every change of the transactions begun so far is on the main process's disk;
   * rejects with `NotKeptError` when one was refused, or when `waitMs` passed first.
   */
  flushed(waitMs = this.options.flushWaitMs ?? DEFAULT_FLUSH_WAIT_MS): Promise<void> {
    const pending = this.waiting.map((batch) => batch.done);
    if (pending.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = this.options.timers.setTimeout(
        () => reject(new NotKeptError(this.lastProblem || 'no answer')),
        waitMs,
      );
      Promise.all(pending).then(
        () => {
          this.options.timers.clearTimeout(timer);
          resolve();
        },
        (error: unknown) => {
          this.options.timers.clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** Sends what has committed at the head of the line, one send at a time. */
  private pump(): void {
    if (this.sending || this.retryTimer !== null) return;
    const ready: Batch[] = [];
    for (const batch of this.waiting) {
      if (batch.state === 'open') break;
      ready.push(batch);
    }
    if (ready.length === 0) return;
    this.sending = true;
    void this.send(ready).finally(() => {
      this.sending = false;
      this.pump();
    });
  }

  private async send(ready: Batch[]): Promise<void> {
    const changes = ready.filter((batch) => batch.state === 'committed').flatMap((batch) => batch.changes);
    const refused = await this.keep(changes);
    if (refused === 'retry') {
      this.failures++;
      this.retryTimer = this.options.timers.setTimeout(
        () => {
          this.retryTimer = null;
          this.pump();
        },
        backoffDelay(this.failures, RETRY, this.options.random),
      );
      return;
    }
    this.failures = 0;
    this.waiting.splice(0, ready.length);
    for (const batch of ready) batch.settle(refused === null ? {} : { refused });
  }

  /** Null when kept; the main process's refusal of an invalid change; or `retry` for a moment's failure. */
  private async keep(changes: WorkChange[]): Promise<string | null | 'retry'> {
    for (let from = 0; from < changes.length; from += MAX_WORK_CHANGES) {
      let answer;
      try {
        answer = await this.options.api.keepWork({ changes: changes.slice(from, from + MAX_WORK_CHANGES) });
      } catch (error) {
        this.lastProblem = error instanceof Error ? error.message : String(error);
        return 'retry';
      }
      if (answer.ok) continue;
      this.lastProblem = answer.error.message;
      if (answer.error.kind !== 'validation') return 'retry';
      console.error("The main process's copy refused a change of the outbox or the journal", answer.error);
      return answer.error.message;
    }
    return null;
  }
}

/** The other way round, for changes handed over whole. */
function keptRowChangeOf(change: WorkChange): KeptRowChange {
  switch (change.op) {
    case 'item':
      return { table: 'outbox', row: change.item };
    case 'gone':
      return { table: 'outbox', deletedUid: change.uid };
    case 'journal':
      return { table: 'journal', row: change.entry };
  }
}

/** A kept table's change as the main process's copy takes it. */
function workChangeOf(change: KeptRowChange): WorkChange {
  if ('deletedUid' in change) return { op: 'gone', uid: change.deletedUid };
  return change.table === 'outbox'
    ? { op: 'item', item: change.row as Extract<WorkChange, { op: 'item' }>['item'] }
    : { op: 'journal', entry: change.row as Extract<WorkChange, { op: 'journal' }>['entry'] };
}
