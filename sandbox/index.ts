/**
 * The sandbox loyalty service: a faithful local implementation of loyalty-api.md with demo
 * data. A library first (the app's demo mode and the tests embed it), a CLI second.
 *
 * It imports nothing from the app, like a real service would not.
 */
import type { AddressInfo } from 'node:net';
import { createDemoData } from './demo-data';
import { isDialect, type Dialect } from './dialect';
import { FaultSwitches } from './faults';
import type { ProgramRecord } from './model';
import { AtomicJsonWriter, loadData } from './persistence';
import { buildServer } from './server';
import { LoyaltyStore, type RedemptionRecord } from './store';

export { DEMO_FIXTURES, PROGRAMS } from './demo-data';
export { DIALECTS, type Dialect } from './dialect';
export type { FaultSettings } from './faults';
export type { RedemptionRecord } from './store';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback by default: the sandbox is never meant to be reachable from other machines. */
  host?: string;
  /** API key -> slug of the programme it earns on (`coffee-club` or `bakery`). */
  keys?: Record<string, string>;
  /** Where state persists. Loaded when it exists, created with demo data otherwise. Without it, state lives in memory. */
  dataFile?: string;
  /** Extra generated customers, for load tests and the benchmark (ignored when a data file already exists). */
  customers?: number;
  /** Seed of the demo data. */
  seed?: number;
  /** The service's clock, for its timestamps and its `Date` header (tests move or skew it). */
  now?: () => Date;
  /**
   * How answers are written where the spec leaves the choice open (`spec`, the default, or
   * `laravel`: as a service built on Laravel answers). Requests are read alike in both.
   */
  dialect?: Dialect;
}

export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:4010`; endpoints live under `/v1`. */
  url: string;
  keys: Array<{ key: string; programme: string }>;
  faults: FaultSwitches;
  /** Every successful redemption since start. */
  redemptions(): RedemptionRecord[];
  close(): Promise<void>;
}

export const DEFAULT_KEYS: Record<string, string> = { 'demo-key': 'coffee-club' };

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const dialect = options.dialect ?? 'spec';
  if (!isDialect(dialect)) throw new Error(`Unknown sandbox dialect "${String(dialect)}"; use spec or laravel.`);
  const now = options.now ?? (() => new Date());
  const data =
    (options.dataFile ? await loadData(options.dataFile) : null) ??
    createDemoData({ seed: options.seed, now: now(), customers: options.customers });

  let persist: () => Promise<void> = async () => undefined;
  const store = new LoyaltyStore(data, now, () => persist());
  if (options.dataFile) {
    const writer = new AtomicJsonWriter(options.dataFile, () => store.snapshot());
    persist = () => writer.save();
    await persist();
  }

  const keys = options.keys ?? DEFAULT_KEYS;
  const programsByKey = new Map<string, ProgramRecord>();
  for (const [key, slug] of Object.entries(keys)) {
    const program = store.programBySlug(slug);
    if (!program) throw new Error(`Unknown programme "${slug}" for a sandbox key; use coffee-club or bakery.`);
    programsByKey.set(key, program);
  }

  const faults = new FaultSwitches();
  const app = buildServer({ store, programsByKey, faults, now, dialect });
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    keys: Object.entries(keys).map(([key, programme]) => ({ key, programme })),
    faults,
    redemptions: () => store.redemptions(),
    close: async () => {
      await app.close();
      await persist();
    },
  };
}
