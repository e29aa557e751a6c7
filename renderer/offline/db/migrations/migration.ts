import type { Transaction } from 'dexie';

/**
 * One version of the database: the tables it adds, changes or drops (`null`), and how it
 * rewrites the rows already there. Never edit a released version; add the next one. Dexie
 * keeps unchanged tables, so a version lists only what changes, and `upgrade` runs inside
 * the upgrade transaction.
 */
export interface Migration {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void>;
}
