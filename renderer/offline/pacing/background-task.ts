/**
 * The fill writer's planning on the page's thread (planning and encoding a write before its
 * transaction opens, customers/new-customer-writes.ts) runs as a task of background priority, where the
 * browser has the Prioritized Task Scheduling API (Chromium, Electron): when the cashier's own
 * work has a task waiting too (the answer to a request of a redemption being queued), the
 * browser runs that first. Elsewhere (a test's DOM) a plain task.
 */
type PostTask = <T>(callback: () => T, options: { priority: 'background' }) => Promise<T>;

export function inBackgroundTask<T>(work: () => T): Promise<T> {
  const scheduler = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler;
  if (typeof scheduler?.postTask === 'function') return scheduler.postTask(work, { priority: 'background' });
  return new Promise<T>((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    }, 0),
  );
}
