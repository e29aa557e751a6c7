/**
 * The keypad's limit against enumeration: at most `perMinute` entries in any 60 seconds. A
 * refused entry is told how long to wait, which the display shows; refused entries do not
 * count, so waiting is always enough.
 */
export interface EntryRateLimit {
  /** 0 when an entry now is taken (and counted); otherwise the whole seconds to wait. */
  take(): number;
}

const WINDOW_MS = 60_000;

export function createEntryRateLimit(options: { perMinute: number; now?: () => number }): EntryRateLimit {
  const now = options.now ?? Date.now;
  const taken: number[] = [];
  return {
    take() {
      const at = now();
      while (taken.length > 0 && at - taken[0]! >= WINDOW_MS) taken.shift();
      if (taken.length < options.perMinute) {
        taken.push(at);
        return 0;
      }
      return Math.max(1, Math.ceil((taken[0]! + WINDOW_MS - at) / 1000));
    },
  };
}
