/**
 * The benchmark's page: the app's offline modules (renderer/offline, imported, not copied)
 * bundled for Chromium, with the measurements the runner calls through `window.bench`.
 *
 * `?readiness=<db>&size=<n>` makes the page measure its own start-up with a full cache as
 * soon as it loads, and leave the answer in `window.benchReadiness`.
 */
import { closeFill, fillBench, keptFillMemory } from './fill-bench';
import { indexCost } from './index-cost';
import { measureReadiness, type ReadinessResult } from './readiness';
import { closeReplay, prepareReplay, runReplay } from './replay-bench';
import { searchBench, seedCache } from './search-bench';
import { sealingBench } from './sealing-bench';
import { serialBench } from './serial-bench';

const bench = {
  seedCache,
  searchBench,
  fillBench,
  keptFillMemory,
  closeFill,
  prepareReplay,
  runReplay,
  closeReplay,
  indexCost,
  serialBench,
  sealingBench,
};
export type BenchApi = typeof bench;

declare global {
  interface Window {
    bench: BenchApi;
    benchReadiness?: ReadinessResult | { error: string };
  }
}

window.bench = bench;

const params = new URLSearchParams(location.search);
const readinessDb = params.get('readiness');
if (readinessDb) {
  measureReadiness(readinessDb, Number(params.get('size')))
    .then((result) => (window.benchReadiness = result))
    .catch((error: unknown) => (window.benchReadiness = { error: String(error) }));
}
