import { computed, ref } from 'vue';
import type { BridgeError, PageMeta } from '../../../common/contract';
import { readPhone, type PhoneReading } from '../../../common/phone';
import type { CacheNote, ListedCustomer } from '../../offline';
import { useConnectionStore } from '../connection';
import { useOfflineStore } from '../offline';
import { useSettingsStore } from '../settings';

/**
 * The customers store's search: the box, the page of results and the row the keys move
 * through. `onSearch` runs as each search starts (the store clears the last customer error).
 */
export function useCustomerSearch(onSearch: () => void) {
  const settings = useSettingsStore();
  const connection = useConnectionStore();
  const offline = useOfflineStore();

  const query = ref('');
  /** What the results list shows of each customer found (the cache keeps no more for a search). */
  const results = ref<ListedCustomer[]>([]);
  const meta = ref<PageMeta | null>(null);
  const searching = ref(false);
  const searchError = ref<BridgeError | null>(null);
  /** Set when the cache answered the search because the service could not be reached. */
  const resultsFromCache = ref<CacheNote | null>(null);
  /** The query and reading the results belong to (the box may have changed since). */
  const searchedFor = ref<{ query: string; phone: PhoneReading | null } | null>(null);
  const activeIndex = ref(-1);
  let searchTicket = 0;

  /** How the box reads right now, shown as the cashier types. */
  const reading = computed(() => readPhone(query.value, settings.defaultCountry));
  const hasSearched = computed(() => searchedFor.value !== null);
  const page = computed(() => meta.value?.current_page ?? 1);
  const lastPage = computed(() => meta.value?.last_page ?? 1);
  const resultsAreCurrent = computed(() => searchedFor.value?.query === query.value.trim());

  async function search(targetPage = 1): Promise<void> {
    const text = query.value.trim();
    if (!text) {
      results.value = [];
      meta.value = null;
      searchedFor.value = null;
      searchError.value = null;
      return;
    }
    const phone = reading.value;
    // A newer search wins: answers to older ones are dropped when they arrive late.
    const ticket = ++searchTicket;
    searching.value = true;
    searchError.value = null;
    onSearch();
    try {
      const result = await offline.services().searchCustomers(text, targetPage);
      if (ticket !== searchTicket) return;
      if (result.ok) {
        if (result.source === 'service') connection.noteSuccess();
        results.value = result.customers;
        meta.value = result.meta;
        resultsFromCache.value = result.source === 'cache' ? result.cache : null;
        searchedFor.value = { query: text, phone };
        activeIndex.value = result.customers.length > 0 ? 0 : -1;
      } else {
        connection.noteFailure(result.error);
        searchError.value = result.error;
      }
    } finally {
      if (ticket === searchTicket) searching.value = false;
    }
  }

  async function goToPage(target: number): Promise<void> {
    if (!searchedFor.value || searching.value) return;
    if (target < 1 || target > lastPage.value) return;
    query.value = searchedFor.value.query;
    await search(target);
  }

  function moveSelection(step: number): void {
    if (results.value.length === 0) return;
    const next = activeIndex.value + step;
    activeIndex.value = Math.min(results.value.length - 1, Math.max(0, next));
  }

  function clearSearch(): void {
    query.value = '';
    results.value = [];
    meta.value = null;
    searchedFor.value = null;
    searchError.value = null;
    resultsFromCache.value = null;
    activeIndex.value = -1;
  }

  return {
    query,
    reading,
    results,
    meta,
    searching,
    searchError,
    searchedFor,
    hasSearched,
    resultsAreCurrent,
    resultsFromCache,
    page,
    lastPage,
    activeIndex,
    search,
    goToPage,
    moveSelection,
    clearSearch,
  };
}
