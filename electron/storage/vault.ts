import { rm } from 'node:fs/promises';
import type { KeyProtection, KeyStatus } from '../../common/contract';
import type { KeyCipher } from './key-cipher';
import { readFileIfExists, writeFileAtomic } from './atomic-file';
import { describeError, type Logger } from '../log/log';
import { ENGLISH, describe, type MainMessageKey } from '../messages';

export type { KeyCipher } from './key-cipher';

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
 * file. It is decrypted once at start and kept in memory.
 */
export async function openVault(options: { file: string; cipher: KeyCipher; log: Logger }): Promise<Vault> {
  const { file, cipher, log } = options;
  let current: string | null = null;

  const stored = await readFileIfExists(file);
  if (stored) {
    try {
      current = cipher.decrypt(stored);
    } catch (error) {
      // The file is kept: it may become readable again (e.g. once the keyring is unlocked).
      log.warn(`The stored API key could not be decrypted and is treated as not set (${describeError(error)}).`);
    }
  }

  return {
    key: () => current,
    status() {
      return {
        set: current !== null,
        lastFour: current === null ? null : current.slice(-4),
        protection: cipher.protection(),
      };
    },
    async store(apiKey) {
      const protection = cipher.protection();
      if (protection === 'unavailable') {
        return { ok: false, why: 'apiKey.noEncryption', message: describe(ENGLISH, 'apiKey.noEncryption') };
      }
      let sealed: Buffer;
      try {
        sealed = cipher.encrypt(apiKey);
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
