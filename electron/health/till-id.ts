import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { isRecord } from '../../common/is-record';
import { readFileIfExists, writeFileAtomic } from '../storage/atomic-file';

/**
 * An id for the till that a manager can read out on the phone and the help desk can find in
 * its fleet tool: `LT-7K3M-Q9XZ`, made at random at the first start and kept in the
 * user-data folder. Crockford's letters (no I, L, O or U), so it is read aloud without doubt;
 * nothing in it says who or where (the machine's name is reported beside it).
 */
export const TILL_ID_FILE = 'till-id.json';

export interface TillId {
  id: string;
  /** When it was made: when the till was first started (ISO). */
  madeAt: string;
}

const LETTERS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TILL_ID = /^LT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

function newId(): string {
  const part = () => Array.from({ length: 4 }, () => LETTERS[randomInt(LETTERS.length)]).join('');
  return `LT-${part()}-${part()}`;
}

/** The id as kept, or null (none yet, or a file that is not one): never made here. */
export async function readTillId(folder: string): Promise<TillId | null> {
  const raw = await readFileIfExists(join(folder, TILL_ID_FILE)).catch(() => null);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    if (isRecord(value) && typeof value.id === 'string' && TILL_ID.test(value.id) && typeof value.madeAt === 'string')
      return { id: value.id, madeAt: value.madeAt };
  } catch {
    // Not JSON: made again below, as at a first start.
  }
  return null;
}

/** The till's id, made and kept at its first start. */
export async function openTillId(folder: string, now: () => Date = () => new Date()): Promise<TillId> {
  const kept = await readTillId(folder);
  if (kept) return kept;
  const made = { id: newId(), madeAt: now().toISOString() };
  await writeFileAtomic(join(folder, TILL_ID_FILE), `${JSON.stringify(made)}\n`, 0o600);
  return made;
}
