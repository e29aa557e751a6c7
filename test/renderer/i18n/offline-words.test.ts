/**
 * The offline core's words reach the screens in the interface language. A stopped cache
 * refresh (shown in Settings) and a paused queue keep a reason, never English words, and
 * are worded when shown: the Arabic screens show no English sentence, and a language switch
 * re-words them. What others said (the bridge's message, the storage's) is passed on as
 * said, isolated.
 */
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { nextTick } from 'vue';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomerPageResult, TillApi } from '../../../common/contract';
import { i18n } from '../../../renderer/i18n';
import { applyInterfaceLocale } from '../../../renderer/i18n/interface-locale';
import { CustomerCache } from '../../../renderer/offline/cache/customer-cache';
import { type OfflineDb } from '../../../renderer/offline/db/schema';
import { replayPauseWords } from '../../../renderer/lib/outbox-words';
import { Replayer } from '../../../renderer/offline/outbox/replayer';
import { CacheRefresh, type RefreshProgress } from '../../../renderer/offline/refresh/cache-refresh';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useSettingsStore } from '../../../renderer/stores/settings';
import SettingsView from '../../../renderer/views/SettingsView.vue';
import { customer, dropDb, freshDb } from '../offline/support/fixtures';
import { installFakeTill, tillState } from '../support/fake-till';

const FSI = '\u2068';
const PDI = '\u2069';
/** A run isolated by LRI, RLI or FSI up to its PDI: what others said, passed on as said. */
const ISOLATED = /[\u2066-\u2068][^\u2069]*\u2069/g;
/** Latin words outside the isolated runs. */
const latinWords = (text: string): string[] => text.replace(ISOLATED, '').match(/[A-Za-z]+/g) ?? [];

const arabic = () => applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
const english = () => applyInterfaceLocale({ language: 'en', arabicDigits: 'arab' }, null);

const PAGES = 3;
function page(n: number): CustomerPageResult {
  return {
    ok: true,
    data: [customer(`c-${n}`, `Customer ${n}`, `+966 50 123 456${n}`)],
    meta: { current_page: n, last_page: PAGES, per_page: 1, total: PAGES },
  };
}

describe('a stopped cache refresh, in Settings', () => {
  let db: OfflineDb;
  let view: VueWrapper;

  beforeEach(async () => {
    setActivePinia(createPinia());
    const till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    till.respond('shopTills', () => ({ ok: true, data: { enabled: false, tills: [] } }));
    await useSettingsStore().load();
    view = mount(SettingsView, { props: { firstRun: false }, global: { plugins: [i18n] } });
    db = freshDb();
  });

  afterEach(async () => {
    view.unmount();
    english();
    await dropDb(db);
  });

  /** Runs a real refresh over `customerPage` until it stops; `during` may act on it as it goes. */
  async function stoppedRun(
    customerPage: TillApi['customerPage'],
    during?: (refresh: CacheRefresh, progress: RefreshProgress) => void,
  ): Promise<RefreshProgress> {
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    const refresh = new CacheRefresh({
      api: { customerPage },
      db,
      cache,
      perPage: 1,
      concurrency: 1,
      sleep: async () => undefined,
      yieldToPage: async () => undefined,
    });
    if (during) refresh.subscribe((progress) => during(refresh, progress));
    const progress = await refresh.run();
    expect(progress.state).toBe('stopped');
    return progress;
  }

  /** What Settings says about the refresh with this progress. */
  async function shown(progress: RefreshProgress): Promise<string> {
    useOfflineStore().refresh = progress;
    await nextTick();
    return view.get('[data-testid="cache-refresh"]').text();
  }

  const KEPT = '؛ تبقى أي نسخة سابقة في النسخة المحفوظة، ويذكر السجل معرّفاتهم.';
  const pausedInArabic = /^توقف تحديث النسخة المحفوظة مؤقتًا \(/;

  it('says how many customers from the service could not be read, in both languages, and nothing when none', async () => {
    const done: RefreshProgress = {
      state: 'idle',
      pagesDone: 3,
      lastPage: 3,
      fetched: 297,
      total: 300,
      lastCompleteRefreshAt: '2026-11-26T03:00:00.000Z',
      unreadable: 3,
      stoppedBecause: null,
      stoppedAt: null,
      resumable: false,
    };
    await shown(done);
    expect(view.get('[data-testid="cache-unreadable"]').text()).toMatch(
      /^3 customers from the service could not be read/,
    );
    arabic();
    await nextTick();
    expect(view.get('[data-testid="cache-unreadable"]').text()).toBe(`تعذّرت قراءة ٣ عملاء من الخدمة${KEPT}`);
    await shown({ ...done, unreadable: 1 });
    expect(view.get('[data-testid="cache-unreadable"]').text()).toBe(`تعذّرت قراءة عميل واحد من الخدمة${KEPT}`);
    await shown({ ...done, unreadable: 0 });
    expect(view.find('[data-testid="cache-unreadable"]').exists()).toBe(false);
  });

  it('says in Arabic that the service answered "not modified" unasked', async () => {
    arabic();
    const progress = await stoppedRun(async () => ({ ok: true, data: null, notModified: true, status: 304 }));
    const words = await shown(progress);
    expect(words).toMatch(pausedInArabic);
    expect(words).toContain('أجابت خدمة الولاء بأن الصفحة «لم تتغيّر» مع أن الطلب لم يسأل عن ذلك');
    expect(latinWords(words)).toEqual([]);
  });

  it('says in Arabic that the refresh was stopped', async () => {
    arabic();
    const progress = await stoppedRun(
      async (payload) => page(payload.page ?? 1),
      (refresh, { pagesDone }) => {
        if (pagesDone >= 1) refresh.stop();
      },
    );
    const words = await shown(progress);
    expect(words).toMatch(pausedInArabic);
    expect(words).toContain('(أُوقف)');
    expect(latinWords(words)).toEqual([]);
  });

  it('says in Arabic that the cache could not store, with the storage’s own message isolated', async () => {
    arabic();
    // The storage's own failure, as IndexedDB would report a full disk.
    db.searchChunks.bulkPut = (() =>
      Promise.reject(new Error('disk full'))) as unknown as typeof db.searchChunks.bulkPut;
    const progress = await stoppedRun(async (payload) => page(payload.page ?? 1));
    const words = await shown(progress);
    expect(words).toMatch(pausedInArabic);
    expect(words).toContain(`تعذّر حفظ العملاء في النسخة المحفوظة: ${FSI}disk full${PDI}`);
    expect(latinWords(words)).toEqual([]);
  });

  it('passes on the bridge’s message, which the main process made in Arabic', async () => {
    arabic();
    const message = 'يتعذّر الوصول إلى نظام الولاء. تحقّق من الاتصال.';
    const progress = await stoppedRun(async () => ({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message },
    }));
    const words = await shown(progress);
    expect(words).toMatch(pausedInArabic);
    expect(words).toContain(`${FSI}${message}${PDI}`);
    expect(latinWords(words)).toEqual([]);
  });

  it('keeps the reason, not words: English as written, re-worded in Arabic on a switch', async () => {
    const progress = await stoppedRun(async () => ({ ok: true, data: null, notModified: true, status: 304 }));
    expect(await shown(progress)).toBe(
      'The cache refresh paused (the loyalty service answered “not modified” to a request that did not ask for it); ' +
        'it resumes by itself when the service answers. No complete refresh yet.',
    );
    arabic();
    await nextTick();
    const words = view.get('[data-testid="cache-refresh"]').text();
    expect(words).toMatch(pausedInArabic);
    expect(latinWords(words)).toEqual([]);
  });
});

describe('a paused queue', () => {
  let db: OfflineDb;

  beforeEach(() => {
    db = freshDb();
  });

  afterEach(async () => {
    english();
    await dropDb(db);
  });

  const replayer = () => new Replayer({ db, api: {} as TillApi, cache: {} as never, outbox: {} as never, locks: null });
  const KEY_REJECTED_AR =
    'رفضت الخدمة مفتاح الواجهة البرمجية (API)، ولن يُرسَل شيء من الأعمال المنتظرة حتى يُصحَّح المفتاح في الإعدادات.';

  it('is said in Arabic, even where an older version stored English words', async () => {
    await db.meta.put({
      key: 'replayPause',
      value: {
        reason: 'unauthorized',
        since: '2026-11-22T10:00:00.000Z',
        message: 'The service rejected the API key. Queued work waits until the key is fixed in the settings.',
      },
    });
    arabic();
    const pause = await replayer().pause();
    // The core hands the row as stored: the reason is what the words are made from.
    expect(pause).toMatchObject({ reason: 'unauthorized', since: '2026-11-22T10:00:00.000Z' });
    const words = replayPauseWords(pause!);
    expect(words).toBe(KEY_REJECTED_AR);
    // "API" is the one Latin word, as the header's own Arabic warning writes it.
    expect(latinWords(words)).toEqual(['API']);
  });

  it('keeps the reason, not words, and the store re-words it when the language changes', async () => {
    setActivePinia(createPinia());
    const till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    await useSettingsStore().load();
    await till.db.meta.put({
      key: 'replayPause',
      value: { reason: 'unauthorized', since: '2026-11-22T10:00:00.000Z' },
    });
    const offline = useOfflineStore();
    await offline.loadOutbox();
    expect(offline.pause?.message).toBe(
      'The service rejected the API key. Queued work waits until the key is fixed in the settings.',
    );
    arabic();
    expect(offline.pause?.message).toBe(KEY_REJECTED_AR);
  });
});
