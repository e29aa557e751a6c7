import { readFileIfExists, writeFileAtomic } from '../storage/atomic-file';
import { isRecord } from '../../common/is-record';
import { isTillName } from './fields';

/**
 * The tills of the shop this till has heard from, each proven at its address (it answered this
 * till's own question there: peer-book.ts), kept across a restart (docs/shop-ledger.md,
 * "Whom it asks"): a till restarted during an outage (the power blinked) must still name the
 * till it can no longer reach, not forget it. Only names, addresses and times, for one shop
 * (its discovery tag): nothing secret, so the file is an ordinary one.
 */
export interface SeenTill {
  till: string;
  host: string;
  port: number;
  /** When it last answered, on the shop's clock (ms). */
  at: number;
}

/** A shift: a till that answered within it is still one of the shop's (and the health check names it). */
export const SHIFT_MS = 8 * 60 * 60 * 1000;

/** A shop has a handful of tills: a longer list is a broken or hostile file, cut here. */
export const MAX_SEEN_TILLS = 64;
const VERSION = 1;

export interface SeenTillsStore {
  /** The shop's tills as last saved; none for another shop's file, a missing or unreadable one. */
  load(shopTag: string): Promise<SeenTill[]>;
  save(shopTag: string, tills: readonly SeenTill[]): Promise<void>;
}

function isSeenTill(value: unknown): value is SeenTill {
  return (
    isRecord(value) &&
    isTillName(value.till) &&
    typeof value.host === 'string' &&
    value.host.length > 0 &&
    value.host.length <= 255 &&
    !/\s/.test(value.host) &&
    Number.isSafeInteger(value.port) &&
    (value.port as number) >= 1 &&
    (value.port as number) <= 65_535 &&
    Number.isSafeInteger(value.at) &&
    (value.at as number) > 0
  );
}

/**
 * The tills the file names: for `shopTag`'s shop only, or, without one, whatever shop it was
 * written for (the health check, which holds no key to derive the tag, reads it so).
 */
export async function readSeenTills(file: string, shopTag?: string): Promise<SeenTill[]> {
  const raw = await readFileIfExists(file).catch(() => null);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (!isRecord(parsed) || parsed.v !== VERSION || !Array.isArray(parsed.tills)) return [];
    if (shopTag !== undefined && parsed.shop !== shopTag) return [];
    return parsed.tills.filter(isSeenTill).slice(0, MAX_SEEN_TILLS);
  } catch {
    return [];
  }
}

export function seenTillsFile(file: string): SeenTillsStore {
  return {
    load: (shopTag) => readSeenTills(file, shopTag),
    async save(shopTag, tills) {
      const kept = tills.slice(0, MAX_SEEN_TILLS).map(({ till, host, port, at }) => ({ till, host, port, at }));
      await writeFileAtomic(file, `${JSON.stringify({ v: VERSION, shop: shopTag, tills: kept }, null, 2)}\n`, 0o600);
    },
  };
}
