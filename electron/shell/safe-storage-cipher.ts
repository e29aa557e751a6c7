import { safeStorage } from 'electron';
import { CipherUnavailableError, type KeyCipher } from '../storage/key-cipher';

/** How Electron words a decryption the OS's store could not do just now (electron_api_safe_storage.cc). */
const TEMPORARILY_UNAVAILABLE = /temporarily unavailable/i;

/**
 * The vault's cipher over Electron's asynchronous safeStorage (`isAsyncEncryptionAvailable`,
 * `encryptStringAsync`, `decryptStringAsync`): Electron 45 deprecates the synchronous calls
 * and 46 removes them, and bytes they sealed open with `decryptStringAsync`, so a key stored
 * by an earlier version is read as it is. Call only after `app` is ready: the asynchronous
 * encryptor is made then, on its first use.
 */
export function createSafeStorageCipher(): KeyCipher {
  return {
    async protection() {
      if (!(await safeStorage.isAsyncEncryptionAvailable())) return 'unavailable';
      // On Linux without a keyring, safeStorage "encrypts" with a hard-coded password. The
      // asynchronous API has no call of its own to say so; the selected backend still does.
      if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
        return 'basic_text';
      }
      return 'os';
    },
    encrypt: (plain) => safeStorage.encryptStringAsync(plain),
    async decrypt(data) {
      try {
        const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(data);
        return { plain: result, reseal: shouldReEncrypt };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (TEMPORARILY_UNAVAILABLE.test(message)) throw new CipherUnavailableError(message);
        throw error;
      }
    },
  };
}
