/**
 * Figures 1 and 2: offline search beside the naive way, and readiness and memory after a
 * start with a full cache.
 */
import type { BenchBrowser } from './bench-browser';
import type { SearchKindResult } from './page/search-bench';
import { KIND_LABELS, QUERY_KINDS } from './page/queries';
import type { Report } from './report';
import { summarize, type Summary } from './stats';

/** performance.now() resolution in a cross-origin isolated Chromium page. */
const TIMER_RESOLUTION_MS = 0.005;

const sizeLabel = (size: number) => size.toLocaleString('en-GB');
const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(0)}`;

/** The p95 targets: 2 ms at 100,000 and 5 ms at 1,000,000 (two words: 5 and 10). */
function p95TargetMs(size: number, kind: string): number | null {
  if (size === 100_000) return kind === 'two_words' ? 5 : 2;
  if (size === 1_000_000) return kind === 'two_words' ? 10 : 5;
  return null;
}

/**
 * Seeds the search section's cache as a till before sealing wrote it, in clear: its readiness is
 * measured so (the cost of sealing is the difference), then the first start's sealing pass seals
 * it (sealing-section.ts), and the search figures and the readiness are measured sealed.
 */
export async function seedSearchCache(bench: BenchBrowser, report: Report, size: number): Promise<string> {
  const dbName = `bench-search-${size}`;
  const seeded = await bench.page.evaluate(([db, n]) => window.bench.seedCache(db, n, true), [dbName, size] as const);
  report.note(
    `Seeded ${sizeLabel(size)} customers with bulkPut in ${(seeded.ms / 1000).toFixed(1)} s, in clear (as a till before sealing).`,
  );
  return dbName;
}

export async function searchFigures(bench: BenchBrowser, report: Report, dbName: string, size: number): Promise<void> {
  const section = `1 search @${sizeLabel(size)}`;
  // Each naive search reads the whole table (seconds at 100,000 on a busy machine, a minute
  // or more at 1,000,000): fewer of them as the table grows, and a time budget per kind.
  const naive = size >= 1_000_000 ? { reps: 1, min: 1 } : size >= 100_000 ? { reps: 5, min: 3 } : { reps: 10, min: 5 };
  const results = (await bench.page.evaluate(
    ([db, n, reps, min]) =>
      window.bench.searchBench(db, n, {
        indexRounds: 4,
        fullRounds: 1,
        naiveReps: reps,
        naiveMinReps: min,
        naiveBudgetMs: 20_000,
        distinctQueries: 50,
      }),
    [dbName, size, naive.reps, naive.min] as const,
  )) as Record<string, SearchKindResult>;

  for (const kind of QUERY_KINDS) {
    const result = results[kind]!;
    const ours = summarize(result.index);
    const full = summarize(result.full);
    const naiveSummary = summarize(result.naive);
    const limit = p95TargetMs(size, kind);
    const id = `search.${size}.${kind}`;
    report.add({
      id: `${id}.index`,
      section,
      label: `${KIND_LABELS[kind]}: ours (in-memory index)`,
      unit: 'ms',
      summary: ours,
      ...(limit !== null ? { target: { text: `p95 < ${limit} ms`, met: ours.p95 < limit } } : {}),
    });
    report.add({
      id: `${id}.cache_search`,
      section,
      label: `${KIND_LABELS[kind]}: ours + the page of 20's listings (memory)`,
      unit: 'ms',
      summary: full,
      note: 'CustomerCache.search end to end: the index, the listings of the customers shown and the cache note.',
    });
    report.add({
      id: `${id}.page_from_blocks`,
      section,
      label: `${KIND_LABELS[kind]}: the page of 20 read from IndexedDB instead (until the listings load)`,
      unit: 'ms',
      summary: summarize(result.blocks),
      note: "getCustomerRows of the page's pks: the customer blocks that hold them.",
    });
    report.add({
      id: `${id}.naive`,
      section,
      label: `${KIND_LABELS[kind]}: naive Dexie filter()`,
      unit: 'ms',
      summary: naiveSummary,
    });
    // Below the timer's resolution ours reads 0: the ratio then uses the resolution, a lower bound.
    const belowResolution = ours.median < TIMER_RESOLUTION_MS;
    const ratio = naiveSummary.median / Math.max(ours.median, TIMER_RESOLUTION_MS);
    report.add({
      id: `${id}.ratio`,
      section,
      label: `${KIND_LABELS[kind]}: naive / ours (medians)${belowResolution ? ', at least' : ''}`,
      unit: 'x',
      value: ratio,
      ...(belowResolution
        ? { note: `ours below the ${TIMER_RESOLUTION_MS * 1000} µs timer resolution; the ratio is a lower bound` }
        : {}),
      ...(size === 100_000 ? { target: { text: '>= 100x', met: ratio >= 100 } } : {}),
    });
    if (result.mismatches.length > 0) {
      report.note(
        `Search @${sizeLabel(size)} ${kind}: ours and naive disagreed on ${result.mismatches.length} queries: ${result.mismatches.slice(0, 3).join('; ')}`,
      );
    }
  }
}

/** Loads the page afresh with a full cache and times its first answers and its index. */
/** The readiness figures' summaries, by figure, for the sealed run to say what sealing added. */
export type ReadinessSummaries = Record<'first_answer' | 'index_ready' | 'listings_ready' | 'serials_ready', Summary>;

/**
 * `beforeSealing`: the cache is still in clear (the readiness of a till before sealing; no
 * targets, ids ending `.before_sealing`). Otherwise the cache is sealed: the targets, and beside
 * each what sealing added to the figures `before` gives.
 */
export async function readinessFigures(
  bench: BenchBrowser,
  report: Report,
  dbName: string,
  size: number,
  repeats: number,
  variant: { beforeSealing: true } | { beforeSealing: false; before?: ReadinessSummaries } = { beforeSealing: false },
): Promise<ReadinessSummaries> {
  const section = `2 ready @${sizeLabel(size)}`;
  const first: number[] = [];
  const ready: number[] = [];
  const listingsReady: number[] = [];
  const serialsReady: number[] = [];
  const heap: number[] = [];
  const listings: number[] = [];
  const via = new Set<string>();
  for (let run = 0; run < repeats; run++) {
    await bench.page.goto(`${bench.pageUrl}?readiness=${encodeURIComponent(dbName)}&size=${size}`);
    const handle = await bench.page.waitForFunction(() => window.benchReadiness, undefined, { timeout: 180_000 });
    const result = (await handle.jsonValue())!;
    if ('error' in result) throw new Error(`Readiness @${size}: ${result.error}`);
    if (result.indexed !== size) throw new Error(`Readiness @${size}: indexed ${result.indexed}, expected ${size}.`);
    if (result.firstAnswerFound.some((found) => found === 0))
      throw new Error(`Readiness @${size}: a first search found nobody.`);
    first.push(result.firstAnswerMs);
    ready.push(result.indexReadyMs);
    listingsReady.push(result.listingsReadyMs);
    serialsReady.push(result.serialsReadyMs);
    result.firstAnswerVia.forEach((path) => via.add(path));
    heap.push((await bench.heapUsedAfterGc()) / 2 ** 20);
    listings.push(result.listingBytes / 2 ** 20);
  }
  await bench.page.goto(bench.pageUrl);
  const clear = variant.beforeSealing;
  const id = `ready.${size}`;
  const suffix = clear ? '.before_sealing' : '';
  const prefix = clear ? 'records in clear (before sealing): ' : '';
  const before = variant.beforeSealing ? undefined : variant.before;
  /** What sealing added, beside a sealed figure. */
  const cost = (figure: keyof ReadinessSummaries, summary: Summary) =>
    before
      ? {
          note: `Sealed. The same cache in clear (before sealing): median ${before[figure].median.toFixed(0)} ms, p95 ${before[figure].p95.toFixed(0)} ms; sealed minus in clear: ${signed(summary.median - before[figure].median)} ms (median), ${signed(summary.p95 - before[figure].p95)} ms (p95).`,
        }
      : {};
  const summaries = {} as ReadinessSummaries;
  const first95 = summarize(first);
  summaries.first_answer = first95;
  report.add({
    id: `${id}.first_answer${suffix}`,
    section,
    label: `${prefix}page load -> first searches answered (via ${[...via].join(', ')})`,
    unit: 'ms',
    summary: first95,
    ...(clear ? {} : { target: { text: 'p95 < 1000 ms', met: first95.p95 < 1000 } }),
    ...cost('first_answer', first95),
  });
  const readyLimit = size >= 1_000_000 ? 15_000 : 2_000;
  // The card serials load last, for a scanned card (figure 8 times the scan): no target here.
  for (const [figure, label, times, targeted] of [
    ['index_ready', 'page load -> full in-memory index ready', ready, true],
    [
      'listings_ready',
      'page load -> the listings loaded too (a search reads nothing from IndexedDB)',
      listingsReady,
      true,
    ],
    [
      'serials_ready',
      'page load -> the card serials loaded too (a scanned card is found from memory)',
      serialsReady,
      false,
    ],
  ] as const) {
    const summary = summarize(times);
    summaries[figure] = summary;
    report.add({
      id: `${id}.${figure}${suffix}`,
      section,
      label: `${prefix}${label}`,
      unit: 'ms',
      summary,
      ...(clear || !targeted
        ? {}
        : { target: { text: `p95 < ${readyLimit.toLocaleString('en-GB')} ms`, met: summary.p95 < readyLimit } }),
      ...cost(figure, summary),
    });
  }
  if (clear) return summaries;
  report.add({
    id: `${id}.heap`,
    section,
    label: 'JS heap with the index and listings loaded (after GC)',
    unit: 'MB',
    summary: summarize(heap),
  });
  report.add({
    id: `${id}.listings`,
    section,
    label: "the listings' typed arrays (outside the JS heap)",
    unit: 'MB',
    summary: summarize(listings),
  });
  const memory95 = summarize(heap.map((mb, i) => mb + listings[i]!));
  report.add({
    id: `${id}.memory`,
    section,
    label: 'memory the offline search holds: JS heap + listings',
    unit: 'MB',
    summary: memory95,
    ...(size >= 1_000_000 ? { target: { text: 'p95 < 200 MB', met: memory95.p95 < 200 } } : {}),
  });
  return summaries;
}
