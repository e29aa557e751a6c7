import { rm } from 'node:fs/promises';
import type { KeyProtection, KeyStatus } from '../../common/contract';
import type { KeyCipher } from './key-cipher';
import { readFileIfExists, writeFileAtomic } from './atomic-file';
import { describeError, type Logger } from '../log/log';
import { ENGLISH, describe, type MainMessageKey } from '../messages';

export type { KeyCipher } from './key-cipher';

/** The API key, sealed, in the user-data folder (the health check only asks whether it is there). */
export const API_KEY_FILE = 'api-key.bin';

/** A refusal names its message (`why`) for the cashier, and says it in English for the log. */
export type StoreKeyOutcome = { ok: true } | { ok: false; why: MainMessageKey; message: string };

export interface Vault {
  /** The key in plain text: for the API client only, never for the renderer. */
  key(): string | null;
  /** What the renderer may know: whether a key is set, its last four characters, and how it is protected. */
  status(): KeyStatus;
  store(apiKey: string): Promise<StoreKeyOutcome>;
  clear(): Promise<void>;
}

const PROTECTION_WORDS: Record<KeyProtection, string> = {
  os: 'protected by the operating system',
  basic_text:
    'NOT protected: this computer has no keyring, so it is only obfuscated and anyone with access to this user account can read it',
  key_file:
    'NOT protected by the operating system: encrypted with a key file in the user-data folder, so anyone who can read that folder can read it',
  unavailable: 'not stored: this computer offers no encryption for secrets',
};

/**
 * The API key at rest: encrypted with the injected cipher and written atomically to one
 * file. It is decrypted once at start and kept in memory; when the OS's store says it should
 * be sealed again (a rotated key), it is, at once.
 *
 * How the cipher protects it is asked at start and at every store, and reported as last
 * learnt: the cipher's answer is asynchronous, the till's state is read synchronously.
 */
export async function openVault(options: { file: string; cipher: KeyCipher; log: Logger }): Promise<Vault> {
  const { file, cipher, log } = options;
  let current: string | null = null;
  let protection = await cipher.protection();

  const stored = await readFileIfExists(file);
  if (stored) {
    try {
      const opened = await cipher.decrypt(stored);
      // Electron opens empty bytes as an empty text: that is no key, not a key of nothing.
      if (opened.plain === '') throw new Error('The stored key is empty.');
      current = opened.plain;
      if (opened.reseal) await reseal(opened.plain);
    } catch (error) {
      // The file is kept: it may become readable again (e.g. once the keyring is unlocked).
      log.warn(`The stored API key could not be decrypted and is treated as not set (${describeError(error)}).`);
    }
  }

  /** Seals the key again under the store's current key; the old bytes still open until then. */
  async function reseal(apiKey: string): Promise<void> {
    try {
      await writeFileAtomic(file, await cipher.encrypt(apiKey));
      log.info('The stored API key was sealed again, as the operating system asked (its key was rotated).');
    } catch (error) {
      log.warn(`Sealing the API key again failed; the old sealing still opens (${describeError(error)}).`);
    }
  }

  return {
    key: () => current,
    status() {
      return {
        set: current !== null,
        lastFour: current === null ? null : current.slice(-4),
        protection,
      };
    },
    async store(apiKey) {
      protection = await cipher.protection();
      if (protection === 'unavailable') {
        return { ok: false, why: 'apiKey.noEncryption', message: describe(ENGLISH, 'apiKey.noEncryption') };
      }
      let sealed: Buffer;
      try {
        sealed = await cipher.encrypt(apiKey);
      } catch (error) {
        log.warn(`Encrypting the API key failed (${describeError(error)}).`);
        return { ok: false, why: 'apiKey.encryptionFailed', message: describe(ENGLISH, 'apiKey.encryptionFailed') };
      }
      await writeFileAtomic(file, sealed);
      current = apiKey;
      log.info(`API key saved, ${PROTECTION_WORDS[protection]}.`);
      if (protection === 'basic_text')
        log.warn('The API key is stored without real encryption (Linux basic_text backend).');
      if (protection === 'key_file')
        log.warn("The API key is encrypted with a key file beside it, not with the operating system's key store.");
      return { ok: true };
    },
    async clear() {
      await rm(file, { force: true });
      current = null;
      log.info('API key cleared.');
    },
  };
}
