import type { OfflineServices } from '../../offline';
import { till } from '../till';

/**
 * Tells the main process of the offline cache's last complete refresh and its size, when the
 * page opens its cache and whenever another refresh completes: the till's health reports it
 * (docs/operations.md, "Watching the tills"), and `--health` reads it without the page open.
 */
export function reportCacheFacts(core: OfflineServices): void {
  let said: string | null = null;
  const tell = async (): Promise<void> => {
    try {
      const facts = await core.cacheFacts();
      const text = JSON.stringify(facts);
      if (text === said) return;
      said = text;
      await till().noteCache(facts);
    } catch {
      // The health keeps what it last heard; the next refresh tells it again.
    }
  };
  let seen: string | null | undefined;
  core.onRefreshProgress((progress) => {
    if (progress.lastCompleteRefreshAt === seen) return;
    seen = progress.lastCompleteRefreshAt;
    void tell();
  });
  void tell();
}
