import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { readFileIfExists, writeFileAtomic } from './atomic-file';
import { describeError, type Logger } from '../log/log';

/**
 * The manager PIN at rest: only a slow salted hash (scrypt from node:crypto), kept by the main
 * process in `manager-pin.json` in the user-data folder, mode 0600, and never sent to the
 * renderer (which learns only whether one is set). The hash is a setting-like value of its
 * own file, `managerPinHash`, so that a managed policy can later supply it instead.
 *
 * A forgotten PIN is reset by deleting that file with the till's operating-system account
 * and starting the app again (docs/security.md): nothing inside the app can do it.
 */

/** scrypt's cost: 2^15 iterations of 8-block mixing, about 32 MB and a tenth of a second a try. */
export interface PinCost {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_PIN_COST: PinCost = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** 4 to 12 digits: typed on a till's number pad. */
export const PIN_PATTERN = /^\d{4,12}$/;

function scrypt(secret: string, salt: Buffer, cost: PinCost): Promise<Buffer> {
  // maxmem above 128 * N * r: Node's 32 MB default is exactly the default cost's need.
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scryptCallback(secret, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * The PHC string format (`$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, base64 without padding): the
 * cost travels with the hash, so it can be raised later, and it is the format an
 * organisation's policy gives (`managerPinHash`, docs/operations.md), so one reader serves both.
 */
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * The costs a PIN hash may have. The ceiling holds for every hash, the till's own included:
 * at most 64 MiB (128·N·r bytes) and the work of N = 2^16 with r = 8, p = 1 (about 0.2 s here,
 * under half a second on a slow till), so no hash can make a try cost gigabytes or seconds.
 * The floor is OWASP's for scrypt, N ≥ 2^15 with r = 8, and holds for a policy's hash, which
 * arrives from outside: a cheaper one falls to a search of every 6-digit PIN in seconds.
 * (The till's own hash is the app's default cost; tests make cheaper ones on purpose.)
 */
export const PIN_HASH_LIMITS = Object.freeze({
  r: 8,
  maxLn: 16,
  minLn: 15,
  maxP: 2,
  /** N·p: 2^16 with p = 1, or 2^15 with p = 2. */
  maxWork: 2 ** 16,
  saltBytes: { min: 16, max: 64 },
});

interface PinHashParts extends PinCost {
  salt: Buffer;
  expected: Buffer;
}

/**
 * The parts of a PIN hash this till can check in bounded time and memory; null for anything
 * else (a cost outside the limits, a salt too short or long, a hash not of 32 bytes), which
 * no PIN could ever match. `floor`: the hash must also cost at least OWASP's floor.
 */
function readPinHash(stored: string, floor: boolean): PinHashParts | null {
  const parts = PHC.exec(stored);
  if (!parts) return null;
  const [ln, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const limits = PIN_HASH_LIMITS;
  if (r !== limits.r || ln < (floor ? limits.minLn : 1) || ln > limits.maxLn || p < 1 || p > limits.maxP) return null;
  if (2 ** ln * p > limits.maxWork) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (salt.length < limits.saltBytes.min || salt.length > limits.saltBytes.max) return null;
  if (expected.length !== KEY_LENGTH) return null;
  return { N: 2 ** ln, r, p, salt, expected };
}

/**
 * Whether an organisation's policy may give this PIN hash: the format, the costs between the
 * floor and the ceiling, and lengths the checker takes. Anything else would be a PIN cracked
 * in seconds, a try costing gigabytes, or a till no PIN can open; the policy is refused whole.
 */
export function isPolicyPinHash(stored: string): boolean {
  return readPinHash(stored, true) !== null;
}

export async function hashPin(pin: string, cost: PinCost = DEFAULT_PIN_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(pin, salt, cost);
  const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${Math.log2(cost.N)},r=${cost.r},p=${cost.p}$${b64(salt)}$${b64(key)}`;
}

/** Whether `stored` is a PIN hash this till can check. */
export function isPinHash(stored: string): boolean {
  return readPinHash(stored, false) !== null;
}

/** Whether the PIN matches the stored hash; a hash that cannot be read matches nothing. */
export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const parts = readPinHash(stored, false);
  if (!parts) return false;
  const key = await scrypt(pin, parts.salt, parts);
  return timingSafeEqual(key, parts.expected);
}

/** Wrong PINs in a row and when the next try is heard (ms since the epoch): the back-off. */
export interface PinTries {
  wrongInARow: number;
  heardAgainAt: number;
}

export interface ManagerPinStore {
  /** The stored hash, or null when no PIN is set. Never for the renderer. */
  hash(): string | null;
  /** Saves a new hash, or removes the PIN (null). */
  save(hash: string | null): Promise<void>;
  /** Whether the organisation's policy gives the hash: then it is not changed here. */
  managed?(): boolean;
  /** The back-off as the file last said at start; null when none is pending. */
  tries(): PinTries | null;
  /** Keeps the back-off with the PIN (null: none pending), so that a restart does not end it. */
  saveTries(tries: PinTries | null): Promise<void>;
}

/**
 * The PIN an organisation's policy gives (`managerPinHash`) over the till's own: while the
 * policy gives one, it is the PIN, and the till's own file is neither used nor changed.
 */
export function withPolicyPin(own: ManagerPinStore, fromPolicy: () => string | null): ManagerPinStore {
  return {
    ...own,
    hash: () => fromPolicy() ?? own.hash(),
    managed: () => fromPolicy() !== null,
    async save(hash) {
      if (fromPolicy() !== null) throw new Error('The manager PIN is set by the organisation.');
      await own.save(hash);
    },
  };
}

/**
 * The `managerPinHash` file, with the back-off beside the hash (`tries`); a hash that cannot be
 * read is logged and treated as no PIN (never shown). The file holds the back-off alone while
 * the organisation's policy gives the PIN. It is written whole each time, mode 0600.
 */
export async function openManagerPinStore(options: { file: string; log: Logger }): Promise<ManagerPinStore> {
  const { file, log } = options;
  let current: string | null = null;
  let tries: PinTries | null = null;
  const raw = await readFileIfExists(file);
  if (raw) {
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as { managerPinHash?: unknown; tries?: unknown };
      tries = readTries(parsed.tries);
      if (typeof parsed.managerPinHash === 'string' && isPinHash(parsed.managerPinHash))
        current = parsed.managerPinHash;
      else if (parsed.managerPinHash !== undefined || tries === null)
        log.warn('The manager PIN file holds no PIN hash this till can check; no manager PIN is set.');
    } catch (error) {
      log.warn(`The manager PIN file could not be read (${describeError(error)}); no manager PIN is set.`);
    }
  }
  async function write(hash: string | null, nextTries: PinTries | null): Promise<void> {
    if (hash === null && nextTries === null) await rm(file, { force: true });
    else {
      const saved = { ...(hash !== null ? { managerPinHash: hash } : {}), ...(nextTries ? { tries: nextTries } : {}) };
      await writeFileAtomic(file, `${JSON.stringify(saved)}\n`, 0o600);
    }
    current = hash;
    tries = nextTries;
  }
  return {
    hash: () => current,
    save: (hash) => write(hash, tries),
    tries: () => tries,
    saveTries: (next) => write(current, next),
  };
}

/** The back-off as the file gives it; a field missing or not a number counts as nothing pending. */
function readTries(value: unknown): PinTries | null {
  if (typeof value !== 'object' || value === null) return null;
  const { wrongInARow, heardAgainAt } = value as Record<string, unknown>;
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
  const read = { wrongInARow: count(wrongInARow), heardAgainAt: count(heardAgainAt) };
  return read.wrongInARow === 0 && read.heardAgainAt === 0 ? null : read;
}
