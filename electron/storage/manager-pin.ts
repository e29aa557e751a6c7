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
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
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

export async function hashPin(pin: string, cost: PinCost = DEFAULT_PIN_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(pin, salt, cost);
  const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${Math.log2(cost.N)},r=${cost.r},p=${cost.p}$${b64(salt)}$${b64(key)}`;
}

/** Whether `stored` is a PIN hash this till can check. */
export function isPinHash(stored: string): boolean {
  return PHC.test(stored);
}

/** Whether the PIN matches the stored hash; a hash that cannot be read matches nothing. */
export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const parts = PHC.exec(stored);
  if (!parts) return false;
  const [ln, r, p] = parts.slice(1, 4).map(Number);
  if (!ln || !r || !p || ln > 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || expected.length !== KEY_LENGTH) return false;
  const key = await scrypt(pin, salt, { N: 2 ** ln, r, p });
  return timingSafeEqual(key, expected);
}

export interface ManagerPinStore {
  /** The stored hash, or null when no PIN is set. Never for the renderer. */
  hash(): string | null;
  /** Saves a new hash, or removes the PIN (null). */
  save(hash: string | null): Promise<void>;
  /** Whether the organisation's policy gives the hash: then it is not changed here. */
  managed?(): boolean;
}

/**
 * The PIN an organisation's policy gives (`managerPinHash`) over the till's own: while the
 * policy gives one, it is the PIN, and the till's own file is neither used nor changed.
 */
export function withPolicyPin(own: ManagerPinStore, fromPolicy: () => string | null): ManagerPinStore {
  return {
    hash: () => fromPolicy() ?? own.hash(),
    managed: () => fromPolicy() !== null,
    async save(hash) {
      if (fromPolicy() !== null) throw new Error('The manager PIN is set by the organisation.');
      await own.save(hash);
    },
  };
}

/** The `managerPinHash` file; one that cannot be read is logged and treated as no PIN (never shown). */
export async function openManagerPinStore(options: { file: string; log: Logger }): Promise<ManagerPinStore> {
  const { file, log } = options;
  let current: string | null = null;
  const raw = await readFileIfExists(file);
  if (raw) {
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as { managerPinHash?: unknown };
      if (typeof parsed.managerPinHash === 'string' && isPinHash(parsed.managerPinHash))
        current = parsed.managerPinHash;
      else log.warn('The manager PIN file holds no PIN hash; no manager PIN is set.');
    } catch (error) {
      log.warn(`The manager PIN file could not be read (${describeError(error)}); no manager PIN is set.`);
    }
  }
  return {
    hash: () => current,
    async save(hash) {
      if (hash === null) await rm(file, { force: true });
      else await writeFileAtomic(file, `${JSON.stringify({ managerPinHash: hash })}\n`, 0o600);
      current = hash;
    },
  };
}
