import { defineStore } from 'pinia';
import { till } from './till';

/** Errors nobody handled go to the main process's log file: the renderer has no file access. */
export const useErrorLogStore = defineStore('error-log', () => {
  function report(error: unknown, source: string): void {
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error ? error.stack : undefined;
    // Logging must never become a second failure.
    void till()
      .logError({ message, source, ...(stack ? { stack } : {}) })
      .catch(() => undefined);
  }
  return { report };
});
