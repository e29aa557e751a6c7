import { computed, ref, shallowRef } from 'vue';
import type { BridgeError, PageMeta } from '../../../common/contract';
import { readPhone, type PhoneReading } from '../../../common/phone';
import type { CacheNote, ListedCustomer } from '../../offline';
import { useConnectionStore } from '../connection';
import { useOfflineStore } from '../offline';
import { useSettingsStore } from '../settings';

/** A page of customers a search found, and the search it answers. */
interface Found {
  kind: 'found';
  results: ListedCustomer[];
  meta: PageMeta;
  /** Set when the cache answered because the service could not be reached. */
  fromCache: CacheNote | null;
  searchedFor: { query: string; phone: PhoneReading | null };
}

/**
 * What the search shows: nothing yet, a page found, or why the last search failed (what the
 * search before it found stays on show beside the error, `kept`).
 */
type SearchShown = { kind: 'nothing' } | Found | { kind: 'failed'; error: BridgeError; kept: Found | null };

const NOTHING_SHOWN: SearchShown = Object.freeze({ kind: 'nothing' });

function foundIn(shown: SearchShown): Found | null {
  if (shown.kind === 'found') return shown;
  return shown.kind === 'failed' ? shown.kept : null;
}

/**
 * The customers store's search: the box, the page of results and the row the keys move
 * through. `onSearch` runs as each search starts (the store clears the last customer error).
 */
export function useCustomerSearch(onSearch: () => void) {
  const settings = useSettingsStore();
  const connection = useConnectionStore();
  const offline = useOfflineStore();

  const query = ref('');
  /** What the search shows: one ref, so clearing it is one assignment (see `SearchShown`). */
  const shown = shallowRef<SearchShown>(NOTHING_SHOWN);
  const searching = ref(false);
  const activeIndex = ref(-1);
  let searchTicket = 0;

  /** How the box reads right now, shown as the cashier types. */
  const reading = computed(() => readPhone(query.value, settings.defaultCountry));
  const found = computed(() => foundIn(shown.value));
  /** What the results list shows of each customer found (the cache keeps no more for a search). */
  const results = computed(() => found.value?.results ?? []);
  const meta = computed(() => found.value?.meta ?? null);
  /** Set when the cache answered the search because the service could not be reached. */
  const resultsFromCache = computed(() => found.value?.fromCache ?? null);
  /** The query and reading the results belong to (the box may have changed since). */
  const searchedFor = computed(() => found.value?.searchedFor ?? null);
  const searchError = computed(() => (shown.value.kind === 'failed' ? shown.value.error : null));
  const hasSearched = computed(() => searchedFor.value !== null);
  const page = computed(() => meta.value?.current_page ?? 1);
  const lastPage = computed(() => meta.value?.last_page ?? 1);
  const resultsAreCurrent = computed(() => searchedFor.value?.query === query.value.trim());

  async function search(targetPage = 1): Promise<void> {
    const text = query.value.trim();
    if (!text) {
      shown.value = NOTHING_SHOWN;
      return;
    }
    const phone = reading.value;
    // A newer search wins: answers to older ones are dropped when they arrive late.
    const ticket = ++searchTicket;
    searching.value = true;
    shown.value = found.value ?? NOTHING_SHOWN;
    onSearch();
    try {
      const result = await offline.services().searchCustomers(text, targetPage);
      if (ticket !== searchTicket) return;
      if (result.ok) {
        if (result.source === 'service') connection.noteSuccess();
        shown.value = {
          kind: 'found',
          results: result.customers,
          meta: result.meta,
          fromCache: result.source === 'cache' ? result.cache : null,
          searchedFor: { query: text, phone },
        };
        activeIndex.value = result.customers.length > 0 ? 0 : -1;
      } else {
        connection.noteFailure(result.error);
        shown.value = { kind: 'failed', error: result.error, kept: found.value };
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
    shown.value = NOTHING_SHOWN;
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
