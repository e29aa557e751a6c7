import { hkdfSync, randomBytes } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DataKeyGrant, DataKeyLoss, DataKeyStatus, KeyProtection } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { describeError, type Logger } from '../log/log';
import { readFileIfExists, syncFolder, writeFileAtomic } from './atomic-file';
import { CipherUnavailableError, type KeyCipher, type Opened } from './key-cipher';

/** The key, sealed by the vault's cipher (the OS's store; the key file in the browser shell). */
export const DATA_KEY_FILE = 'data-key.bin';
/**
 * Says that this till made a data key, and when; plain, since it holds nothing secret. With it,
 * a sealed file that has gone is told from a till that never had one: the first is a loss the
 * page must explain, the second a first start.
 */
export const DATA_KEY_MARKER_FILE = 'data-key.made.json';

const KEY_BYTES = 32; // AES-256
/** Named inside the sealed text: bytes sealed for anything else (the API key) never open as the data key. */
const PURPOSE = 'loyalty-till data key';
const FORMAT = 1;
/** How long the OS's store is waited for when it says it cannot answer now, before the key counts as lost. */
const UNAVAILABLE_WAITS_MS: readonly number[] = [500, 1500, 3000];

const PROTECTION_WORDS: Record<KeyProtection, string> = {
  os: 'protected by the operating system',
  basic_text: 'NOT protected: this computer has no keyring, so it is only obfuscated',
  key_file: 'NOT protected by the operating system: sealed with the key file in the user-data folder',
  unavailable: 'not stored: this computer offers no encryption',
};

/** The till's data key, held by the main process (docs/security.md#the-data-key). */
export interface DataKey {
  /** The key for the till's page, and whether the data it encrypted before can be read. */
  grant(): DataKeyGrant;
  /** What Settings may know: never the key. */
  status(): DataKeyStatus;
  /** The key as text in every spelling a log line could carry it: the redacting logger removes them. */
  secrets(): string[];
  /**
   * A key of its own for one use of the main process (`work copy v1`): HKDF-SHA256 of the data
   * key, so the data key's bytes never leave this module and no two uses share a key. Follows
   * the data key: after `forget`, the new key's.
   */
  subkey(purpose: string): Buffer;
  /** Destroys the key (its sealed file, and any kept aside) and makes a new one. */
  forget(): Promise<void>;
}

export interface DataKeyOptions {
  /** The user-data folder. */
  folder: string;
  cipher: KeyCipher;
  log: Logger;
  now?: () => Date;
  /** The waits before asking a store that cannot answer now again (tests shorten them). */
  unavailableWaitsMs?: readonly number[];
}

interface Held {
  key: Buffer;
  createdAt: string;
  kept: boolean;
  /** The key's spellings no log line may carry, made once. */
  spellings: string[];
  /** The subkeys derived so far, by purpose. */
  subkeys: Map<string, Buffer>;
}

/**
 * Opens the till's data key, or makes it: 32 random bytes (`node:crypto`), sealed with the
 * vault's cipher and written atomically to `data-key.bin` (0600). It is kept in memory only
 * here, in the main process, and written nowhere but sealed.
 *
 * A sealed file that cannot be opened (another keyring, a changed file) is moved aside, never
 * overwritten, and a file that is gone while the marker says a key was made is a loss too:
 * either way a new key is made and the grant says `lost`, with the reason, for this run, so
 * the page starts blank and says why.
 */
export async function openDataKey(options: DataKeyOptions): Promise<DataKey> {
  const { folder, cipher, log } = options;
  const now = options.now ?? (() => new Date());
  const sealedFile = join(folder, DATA_KEY_FILE);
  const markerFile = join(folder, DATA_KEY_MARKER_FILE);
  let protection = await cipher.protection();

  async function makeKey(): Promise<Held> {
    const key = randomBytes(KEY_BYTES);
    const createdAt = now().toISOString();
    let kept = false;
    if (protection === 'unavailable') {
      log.warn('This computer offers no encryption: the data key is not stored, and lives for this run only.');
    } else {
      try {
        await writeFileAtomic(sealedFile, await cipher.encrypt(envelopeOf(key, createdAt)));
        kept = true;
      } catch (error) {
        log.warn(`The data key could not be sealed, so it lives for this run only (${describeError(error)}).`);
      }
    }
    await writeMarker(createdAt, kept);
    log.info(`A new data key was made${kept ? `, ${PROTECTION_WORDS[protection]}` : ''}.`);
    return held(key, createdAt, kept);
  }

  async function writeMarker(createdAt: string, kept: boolean): Promise<void> {
    await writeFileAtomic(markerFile, `${JSON.stringify({ format: FORMAT, createdAt, kept })}\n`);
  }

  /** Keeps a file that would not open, for a person to look at; the next key never overwrites it. */
  async function moveAside(reason: DataKeyLoss, why: string): Promise<void> {
    const aside = `${sealedFile}.unreadable-${now().getTime()}`;
    await rename(sealedFile, aside).catch((error) =>
      log.warn(`The unreadable data key could not be moved aside: ${describeError(error)}`),
    );
    log.warn(
      `The data key could not be opened (${reason}: ${why}); it is kept as ${basename(aside)}. ` +
        'A new key is made: what the page encrypted with the old one cannot be read.',
    );
  }

  async function openPatiently(sealed: Buffer): Promise<Opened> {
    const waits = options.unavailableWaitsMs ?? UNAVAILABLE_WAITS_MS;
    for (let tried = 0; ; tried++) {
      try {
        return await cipher.decrypt(sealed);
      } catch (error) {
        if (!(error instanceof CipherUnavailableError) || tried >= waits.length) throw error;
        log.warn(`The operating system's key store cannot answer now; asking again in ${waits[tried]} ms.`);
        await new Promise((resolve) => setTimeout(resolve, waits[tried]));
      }
    }
  }

  /** The key on disk: held, lost (with why), or none at all. */
  async function readSealed(): Promise<{ held: Held } | { loss: DataKeyLoss } | null> {
    const sealed = await readFileIfExists(sealedFile);
    if (!sealed) return null;
    let opened: Opened;
    try {
      opened = await openPatiently(sealed);
    } catch (error) {
      const reason = error instanceof CipherUnavailableError ? 'store_unavailable' : 'unreadable';
      await moveAside(reason, describeError(error));
      return { loss: reason };
    }
    const found = readEnvelope(opened.plain);
    // No parser's message is logged here: it could quote the sealed text, the key in it.
    if (!found) {
      await moveAside('unreadable', 'it opened, but not as a data key');
      return { loss: 'unreadable' };
    }
    if (opened.reseal) {
      await writeFileAtomic(sealedFile, await cipher.encrypt(envelopeOf(found.key, found.createdAt))).then(
        () => log.info('The data key was sealed again, as the operating system asked (its key was rotated).'),
        (error) =>
          log.warn(`Sealing the data key again failed; the old sealing still opens (${describeError(error)}).`),
      );
    }
    // A crash between the key and its marker left no marker: it is written now.
    if (!(await readFileIfExists(markerFile))) await writeMarker(found.createdAt, true);
    return { held: held(found.key, found.createdAt, true) };
  }

  /** Why the till has no key although it made one before; null on a first start. */
  async function lossWithoutFile(): Promise<DataKeyLoss | null> {
    const marker = await readFileIfExists(markerFile);
    if (!marker) return null;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(marker.toString('utf8'));
    } catch {
      // A marker that cannot be read still says a key was made.
    }
    return isRecord(parsed) && parsed.kept === false ? 'not_kept' : 'missing';
  }

  let loss: { reason: DataKeyLoss; lostAt: string } | null = null;
  const found = await readSealed();
  let current: Held;
  if (found && 'held' in found) {
    current = found.held;
  } else {
    const reason = found ? found.loss : await lossWithoutFile();
    if (reason) loss = { reason, lostAt: now().toISOString() };
    if (reason === 'missing') log.warn('The data key is missing although this till made one: a new key is made.');
    current = await makeKey();
  }

  return {
    grant() {
      const parts = {
        key: current.key.toString('base64'),
        createdAt: current.createdAt,
        protection,
        kept: current.kept,
      };
      return loss ? { state: 'lost', ...loss, ...parts } : { state: 'ready', ...parts };
    },
    status: () =>
      loss
        ? { state: 'lost', loss, protection, kept: current.kept }
        : { state: 'ready', protection, kept: current.kept },
    secrets: () => current.spellings,
    subkey(purpose) {
      let derived = current.subkeys.get(purpose);
      if (!derived) {
        derived = derive(current.key, purpose);
        current.subkeys.set(purpose, derived);
      }
      return derived;
    },
    async forget() {
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names) {
        if (name === DATA_KEY_FILE || name.startsWith(`${DATA_KEY_FILE}.unreadable-`))
          await rm(join(folder, name), { force: true });
      }
      await syncFolder(folder);
      current.key.fill(0);
      for (const derived of current.subkeys.values()) derived.fill(0);
      protection = await cipher.protection();
      current = await makeKey();
      loss = null;
      log.info('The data key was destroyed: what the page encrypted with it cannot be read any more.');
    },
  };
}

/** A key of its own for one use (HKDF-SHA256 of the data key, the use named in `info`). */
function derive(key: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `loyalty-till ${purpose}`, KEY_BYTES));
}

function held(key: Buffer, createdAt: string, kept: boolean): Held {
  return {
    key,
    createdAt,
    kept,
    spellings: [key.toString('base64'), key.toString('base64url'), key.toString('hex')],
    subkeys: new Map(),
  };
}

/** The sealed text: the key with its purpose and format, so bytes sealed for anything else never pass. */
function envelopeOf(key: Buffer, createdAt: string): string {
  return JSON.stringify({ purpose: PURPOSE, format: FORMAT, key: key.toString('base64'), createdAt });
}

function readEnvelope(plain: string): { key: Buffer; createdAt: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || parsed.purpose !== PURPOSE || parsed.format !== FORMAT) return null;
  const { key, createdAt } = parsed;
  if (typeof key !== 'string' || typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) return null;
  const bytes = Buffer.from(key, 'base64');
  // Node's base64 reader skips what it cannot read: only the exact spelling of 32 bytes is a key.
  if (bytes.length !== KEY_BYTES || bytes.toString('base64') !== key) return null;
  return { key: bytes, createdAt };
}

/**
 * The data key's subkeys as a reader beside the till has them (the health check, whose copy of
 * the outbox is sealed under it): the sealed key read and opened once, nothing moved aside,
 * sealed again or made. Null when there is none; rejects when it is there and will not open (the
 * till mends that at its next start, not the reader). The key itself never leaves this module.
 */
export async function readDataKey(
  folder: string,
  cipher: Pick<KeyCipher, 'decrypt'>,
): Promise<Pick<DataKey, 'subkey'> | null> {
  const sealed = await readFileIfExists(join(folder, DATA_KEY_FILE));
  if (!sealed) return null;
  const found = readEnvelope((await cipher.decrypt(sealed)).plain);
  if (!found) throw new Error('the data key file opened, but not as a data key');
  const key = found.key;
  return { subkey: (purpose) => derive(key, purpose) };
}
