/**
 * The till's data key, attached to the database before anything else uses it
 * (docs/security.md#what-the-page-keeps-sealed): at every opening (Dexie's sticky `ready`, which
 * holds every other operation back until it resolves), the key is asked of the main process
 * once a page (`window.till.dataKey()`), its keyring made (sealing/keyring.ts), and the
 * database's key check compared with the keyring's:
 *
 * - no check yet: a new database, or one an earlier version wrote in clear: the check is written
 *   (in clear: it tells keys apart and says nothing of them), and the sealing pass
 *   (sealing-pass.ts) seals what an earlier version left;
 * - the same check: the database was sealed under this key;
 * - another check: it was sealed under another key (the main process lost the old one, or its
 *   folder was wiped whole), and nothing in it can be read: every table is emptied, in one
 *   transaction, before anything reads it, the new check written, and the problem told
 *   (`onDataKeyProblem`), so the screens can say why the till starts blank. The outbox and the
 *   journal then come back from the main process's copy (outbox/copy-reconciliation.ts, which
 *   runs right after).
 *
 * A key the main process says is `lost` is told too, even when the database held nothing
 * sealed under the old one (`cleared: false`).
 */
import type { DataKeyGrant, DataKeyLoss, Result, TillApi } from '../../../common/contract';
import { openKeyring, type Keyring } from '../sealing/keyring';
import { attachKeyring } from './sealed-tables';
import { SEALING_META_KEYS, type MetaRow, type OfflineDb } from './schema';

export type DataKeyProblemReason =
  /** The main process's key is new because the old one was lost (`DataKeyGrant.state: 'lost'`). */
  | 'key_lost'
  /** The database was sealed under another key than the main process's (its folder wiped whole, say). */
  | 'other_key';

export interface DataKeyProblem {
  reason: DataKeyProblemReason;
  /** The main process's reason for a lost key. */
  lost?: DataKeyLoss;
  /** Whether the page's database held records sealed under the other key, and was emptied. */
  cleared: boolean;
  /** When the page found it (ISO 8601). */
  at: string;
}

export type DataKeyProblemListener = (problem: DataKeyProblem) => void;

export interface KeyAtOpenOptions {
  api: Pick<TillApi, 'dataKey'>;
  now?: () => Date;
  /** Waits between asks of a main process that did not answer the key (tests shorten them). */
  retryWaitsMs?: readonly number[];
}

/** The main process answered no key, after every try: the database cannot be opened without one. */
export class DataKeyUnavailableError extends Error {
  constructor(readonly said: string) {
    super(`The till's data key could not be had from the main process: ${said}`);
    this.name = 'DataKeyUnavailableError';
  }
}

interface Installed {
  listeners: Set<DataKeyProblemListener>;
  last: DataKeyProblem | null;
}

const installed = new WeakMap<OfflineDb, Installed>();

/**
 * Attaches the data key at every opening of `db`; the first call for a database decides where
 * its key comes from (a later one, the facade's over a test's database, changes nothing).
 */
export function keyAtEveryOpen(db: OfflineDb, options: KeyAtOpenOptions): void {
  if (installed.has(db)) return;
  const state: Installed = { listeners: new Set(), last: null };
  installed.set(db, state);
  const now = options.now ?? (() => new Date());
  let grant: Promise<{ grant: DataKeyGrant; keyring: Keyring }> | null = null;
  let lostTold = false;
  const tell = (problem: DataKeyProblem) => {
    state.last = problem;
    for (const listener of state.listeners) listener(problem);
  };
  db.on(
    'ready',
    async (vip) => {
      grant ??= keyringOf(options);
      const held = await grant.catch((error: unknown) => {
        grant = null; // asked again at the next opening
        throw error;
      });
      const target = vip as OfflineDb;
      const cleared = await checkKey(target, held.keyring.check, now());
      const lost = held.grant.state === 'lost' ? held.grant.reason : undefined;
      if (cleared)
        tell({ reason: lost ? 'key_lost' : 'other_key', ...(lost ? { lost } : {}), cleared, at: now().toISOString() });
      else if (lost && !lostTold) tell({ reason: 'key_lost', lost, cleared: false, at: now().toISOString() });
      if (lost) lostTold = true;
      const pass = (await target.meta.get('sealingPass')) as MetaRow<'sealingPass'> | undefined;
      attachKeyring(db, held.keyring, { legacy: pass?.value.done !== true });
    },
    true,
  );
}

/** Subscribes to the key problems found at `db`'s openings (also those before the subscription: the last is given at once). */
export function onDataKeyProblem(db: OfflineDb, listener: DataKeyProblemListener): () => void {
  const state = installed.get(db);
  if (!state) return () => {};
  state.listeners.add(listener);
  if (state.last) listener(state.last);
  return () => state.listeners.delete(listener);
}

/** The last key problem found at `db`'s openings, or null. */
export function lastDataKeyProblem(db: OfflineDb): DataKeyProblem | null {
  return installed.get(db)?.last ?? null;
}

const DEFAULT_RETRY_WAITS_MS: readonly number[] = [250, 1000, 3000];

async function keyringOf(options: KeyAtOpenOptions): Promise<{ grant: DataKeyGrant; keyring: Keyring }> {
  const waits = options.retryWaitsMs ?? DEFAULT_RETRY_WAITS_MS;
  let said = 'no answer';
  for (let attempt = 0; ; attempt++) {
    let answer: Result<DataKeyGrant> | null = null;
    try {
      answer = await options.api.dataKey();
    } catch (error) {
      said = error instanceof Error ? error.message : String(error);
    }
    if (answer?.ok) return { grant: answer.data, keyring: await openKeyring(answer.data.key) };
    if (answer && !answer.ok) said = answer.error.message;
    if (attempt >= waits.length) throw new DataKeyUnavailableError(said);
    await new Promise((resolve) => setTimeout(resolve, waits[attempt]));
  }
}

/**
 * Compares the database's key check with `check`; writes it where there was none, and empties a
 * database sealed under another key. Resolves to whether it emptied one. A new database (nothing
 * in it) has nothing to seal: its sealing pass is done from the start.
 */
async function checkKey(db: OfflineDb, check: string, now: Date): Promise<boolean> {
  const stored = (await db.meta.get('keyCheck')) as MetaRow<'keyCheck'> | undefined;
  if (stored?.value.check === check) return false;
  const at = now.toISOString();
  if (stored) {
    await db.transaction('rw', db.tables, async () => {
      for (const table of db.tables) await table.clear();
      await db.meta.bulkPut([
        { key: 'keyCheck', value: { check, at } },
        { key: 'sealingPass', value: { done: true, at } },
      ] as MetaRow[]);
    });
    return true;
  }
  const counts = await Promise.all(
    db.tables.map((table) =>
      table.name === 'meta'
        ? table
            .where(':id')
            .noneOf([...SEALING_META_KEYS])
            .count()
        : table.count(),
    ),
  );
  const rows: MetaRow[] = [{ key: 'keyCheck', value: { check, at } } as MetaRow];
  if (counts.every((count) => count === 0)) rows.push({ key: 'sealingPass', value: { done: true, at } } as MetaRow);
  await db.meta.bulkPut(rows);
  return false;
}
