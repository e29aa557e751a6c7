/**
 * Cache writes that run behind the answer they came with.
 *
 * The service's answer is shown as soon as it arrives; writing it through to IndexedDB can
 * wait (while the background refresh writes, a read-write transaction queues behind it).
 * The writes run one after another, in the order they were queued, so a later answer is
 * never overwritten by an earlier one. A failed write is reported to the listeners, never
 * swallowed, and costs only a cache miss later: the next write still runs.
 */
export type WriteFailureListener = (failure: { what: string; error: unknown }) => void;

export class WriteBehind {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private readonly listeners = new Set<WriteFailureListener>();

  /** Queues `write`; `what` names it in a failure report (never with secrets in it). */
  queue(what: string, write: () => Promise<unknown>): void {
    this.queued += 1;
    this.tail = this.tail.then(async () => {
      try {
        await write();
      } catch (error) {
        this.report(what, error);
      } finally {
        this.queued -= 1;
      }
    });
  }

  /** Writes queued and not yet finished. */
  get pending(): number {
    return this.queued;
  }

  /** Resolves once every write queued so far has finished (stored or reported). */
  settled(): Promise<void> {
    return this.tail;
  }

  /** Subscribes to failed writes; without any listener they go to the console. */
  onFailure(listener: WriteFailureListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private report(what: string, error: unknown): void {
    if (this.listeners.size === 0) {
      console.error(`Writing ${what} to the offline cache failed:`, error);
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener({ what, error });
      } catch (listenerError) {
        // A listener's own failure must not stop the queue nor hide the first one.
        console.error('A cache write failure listener failed:', listenerError);
      }
    }
  }
}
