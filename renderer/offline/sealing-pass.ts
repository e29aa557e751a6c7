/**
 * The first start's sealing pass: what an earlier version of the till stored in clear, sealed
 * under the data key (docs/security.md#what-the-page-keeps-sealed, "An upgraded till").
 *
 * A version bump of the database cannot do it: its upgrade runs while the database opens,
 * before the key is attached (db/key-at-open.ts), and cannot wait for one. So, once the
 * database is open with its keyring, this pass reads every table in key order and rewrites the
 * records still in clear (a record without the sealed field: `isLegacyRow`), in bounded
 * transactions that make way for the cashier as the refresh's do (pacing/search-rhythm.ts):
 *
 * - the rewards first (few, and until they are done a code not found by its digest is looked for
 *   under its plain key too): each is written again under the digest of its code and removed
 *   from its plain key, in the same transaction, its pending mark (`pendingOutboxSeq`) with it;
 * - the outbox and the journal, unchanged but sealed: the main process's copy holds them as they
 *   are, so they are written below the kept tables' middleware and not handed over again;
 * - the customer blocks, the search chunks, the listing chunks, then the phone digests, made
 *   again keyed from their chunks.
 *
 * Resumable: each transaction also writes how far it got (`meta.sealingPass`), so a restart goes
 * on from there. Until it is done every read accepts legacy records as they are; nothing queued
 * is lost, since every record is rewritten as it was read, inside the transaction that read it.
 *
 * What it cannot do: IndexedDB's LevelDB files keep the deleted plain records until they are
 * compacted (docs/security.md says what follows).
 */
import { Dexie, type DBCoreTransaction, type Table } from 'dexie';
import { readMeta } from './db/meta';
import { isLegacyRow, sealedCore, sealingDone } from './db/sealed-tables';
import type { MetaRow, MetaValues, OfflineDb, PhoneDigest } from './db/schema';
import { yieldToBrowser } from './search/index-loader';
import { WriteCostModel } from './pacing/write-cost';
import { phoneDigestOf } from './search/phone-digests';

/** The tables in the order they are sealed. */
export const SEALING_STEPS = [
  'rewards',
  'outbox',
  'journal',
  'customerBlocks',
  'searchChunks',
  'listingChunks',
  'phoneDigests',
] as const;
type Step = (typeof SEALING_STEPS)[number];

/** What the pass makes way for: the cashier's searches and own writes (the cache's rhythm). */
export interface CashierRhythm {
  whenSearchesIdle(): Promise<void>;
  expectedSearchIn(): number | null;
  nextSearchEnd(): Promise<void>;
  readonly typicalSearchPause: number | null;
}

export interface SealingPassOptions {
  db: OfflineDb;
  rhythm: CashierRhythm;
  now?: () => Date;
  yieldToPage?: () => Promise<void>;
  /** Records read a transaction at most (and at first). */
  maxPerTransaction?: number;
  firstPerTransaction?: number;
  /** How long a transaction may take while nobody searches; while someone does, a share of their pause. */
  idleBudgetMs?: number;
  /** Told after every transaction. */
  onProgress?: (progress: SealingProgress) => void;
  signal?: AbortSignal;
}

export interface SealingProgress {
  /** Records sealed so far, over every run of the pass. */
  sealed: number;
  /** The table being sealed, or null once done. */
  table: Step | null;
  done: boolean;
}

const MAX_PER_TRANSACTION = 1024;
const FIRST_PER_TRANSACTION = 32;
/** A transaction's time while nobody searches: about what one of the refresh's first fill takes. */
const IDLE_BUDGET_MS = 50;
/** While the cashier searches, a transaction takes at most this share of their usual pause, and never more than ACTIVE_BUDGET_MS. */
const PAUSE_SHARE = 0.5;
const ACTIVE_BUDGET_MS = 8;

/**
 * A one-byte binary key, 0: every string key (a reward's plain code) sorts below it, every
 * digest (16 bytes) above. (The empty one would be the smallest, but some IndexedDBs take an
 * empty buffer for a detached one and refuse it.)
 */
const FIRST_BINARY_KEY = Uint8Array.of(0).buffer;

/**
 * Seals what is left in clear; resolves once every table is done (or the pass was stopped, or
 * the database closed: it goes on at the next start).
 */
export async function runSealingPass(options: SealingPassOptions): Promise<SealingProgress> {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const state = await readMeta(db, 'sealingPass');
  if (state?.done) {
    sealingDone(db);
    return { sealed: 0, table: null, done: true };
  }
  let step = state ? Math.max(0, SEALING_STEPS.indexOf(state.table as Step)) : 0;
  let after = state?.after ?? null;
  let sealed = state?.sealed ?? 0;
  let perTransaction = options.firstPerTransaction ?? FIRST_PER_TRANSACTION;
  // What a transaction of n records costs here: a fixed part (the read, the writes' round trip,
  // the commit) and a part a record, learnt as they commit (pacing/write-cost.ts says why two).
  const cost = new WriteCostModel();
  let timed = 0;
  const max = options.maxPerTransaction ?? MAX_PER_TRANSACTION;
  while (step < SEALING_STEPS.length) {
    if (options.signal?.aborted) return { sealed, table: SEALING_STEPS[step]!, done: false };
    const budget = await makeWay(options);
    if (timed > 0) perTransaction = Math.max(1, Math.min(max, cost.customersWithin(budget)));
    const started = performance.now();
    const table = SEALING_STEPS[step]!;
    let page: { read: number; sealed: number; last: number | null };
    let next: MetaValues['sealingPass'];
    try {
      [page, next] = await db.transaction('rw', tablesOf(db, table), async () => {
        const one = await sealPage(db, table, after, perTransaction);
        const finished = one.read < perTransaction;
        const following = finished ? step + 1 : step;
        // How far it got, in the same transaction: a restart goes on from there.
        const reached: MetaValues['sealingPass'] =
          following >= SEALING_STEPS.length
            ? { done: true, at: now().toISOString() }
            : {
                done: false,
                table: SEALING_STEPS[following]!,
                after: finished ? null : one.last,
                sealed: sealed + one.sealed,
              };
        await db.meta.put({ key: 'sealingPass', value: reached } as MetaRow);
        return [one, reached] as const;
      });
    } catch (error) {
      if (error instanceof Dexie.DatabaseClosedError) return { sealed, table, done: false };
      throw error;
    }
    if (page.read > 0) {
      cost.observe(page.read, performance.now() - started);
      timed += 1;
    }
    sealed += page.sealed;
    if (next.done) step = SEALING_STEPS.length;
    else {
      step = SEALING_STEPS.indexOf(next.table as Step);
      after = next.after;
    }
    options.onProgress?.({ sealed, table: next.done ? null : SEALING_STEPS[step]!, done: next.done });
  }
  sealingDone(db);
  return { sealed, table: null, done: true };
}

/** Waits for the cashier's turn; resolves to how long the next transaction may take. */
async function makeWay(options: SealingPassOptions): Promise<number> {
  const { rhythm } = options;
  await (options.yieldToPage ?? yieldToBrowser)();
  await rhythm.whenSearchesIdle();
  const expected = rhythm.expectedSearchIn();
  if (expected === null) return options.idleBudgetMs ?? IDLE_BUDGET_MS;
  const pause = rhythm.typicalSearchPause ?? ACTIVE_BUDGET_MS;
  const budget = Math.min(ACTIVE_BUDGET_MS, pause * PAUSE_SHARE);
  if (expected < budget) {
    // A search is due before a transaction would end: after it, the whole pause is ahead.
    await rhythm.nextSearchEnd();
    await rhythm.whenSearchesIdle();
  }
  return budget;
}

function tablesOf(db: OfflineDb, table: Step): Table[] {
  if (table === 'phoneDigests') return [db.phoneDigests, db.searchChunks, db.meta];
  return [db.table(table), db.meta];
}

/**
 * One transaction's work: up to `limit` records of `table` after `after`, those in clear sealed.
 * Records are written as they were read, through the sealing middleware's own layer.
 */
async function sealPage(
  db: OfflineDb,
  table: Step,
  after: number | null,
  limit: number,
): Promise<{ read: number; sealed: number; last: number | null }> {
  // The DBCore transaction of IndexedDB's core is the IDBTransaction itself.
  const trans = Dexie.currentTransaction!.idbtrans as unknown as DBCoreTransaction;
  const core = sealedCore(db);
  if (table === 'rewards') {
    // A plain code is a string key: every one sorts below the digests, which are binary.
    const page = await db.rewards.where(':id').below(FIRST_BINARY_KEY).limit(limit).toArray();
    const legacy = page.filter(isLegacyRow);
    if (legacy.length > 0) await core.table('rewards').mutate({ type: 'put', trans, values: legacy });
    return { read: page.length, sealed: legacy.length, last: null };
  }
  const source = db.table(table);
  const page = (await (after === null ? source.toCollection() : source.where(':id').above(after))
    .limit(limit)
    .toArray()) as Record<string, unknown>[];
  const last = page.length > 0 ? (page[page.length - 1]![keyOf(table)] as number) : null;
  if (table === 'phoneDigests') {
    const stale = (page as unknown as PhoneDigest[]).filter((digest) => digest.keyed !== true);
    if (stale.length === 0) return { read: page.length, sealed: 0, last };
    const chunks = await db.searchChunks.bulkGet(stale.map((digest) => digest.chunk));
    const made = chunks.flatMap((chunk) => (chunk ? [phoneDigestOf(db, chunk)] : []));
    const orphans = stale.filter((_, i) => !chunks[i]).map((digest) => digest.chunk);
    await Promise.all([
      made.length > 0 ? db.phoneDigests.bulkPut(made) : undefined,
      orphans.length > 0 ? db.phoneDigests.bulkDelete(orphans) : undefined,
    ]);
    return { read: page.length, sealed: stale.length, last };
  }
  const legacy = page.filter(isLegacyRow);
  if (legacy.length > 0) await core.table(table).mutate({ type: 'put', trans, values: legacy });
  return { read: page.length, sealed: legacy.length, last };
}

function keyOf(table: Exclude<Step, 'rewards'>): string {
  switch (table) {
    case 'outbox':
    case 'journal':
      return 'seq';
    case 'customerBlocks':
      return 'block';
    default:
      return 'chunk';
  }
}
