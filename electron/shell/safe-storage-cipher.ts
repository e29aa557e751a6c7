import { safeStorage } from 'electron';
import type { KeyCipher } from '../storage/key-cipher';

/**
 * The vault's cipher over Electron's safeStorage. Call only after `app` is ready: on Linux
 * the storage backend is chosen then.
 */
export function createSafeStorageCipher(): KeyCipher {
  return {
    protection() {
      if (!safeStorage.isEncryptionAvailable()) return 'unavailable';
      // On Linux without a keyring, safeStorage "encrypts" with a hard-coded password.
      if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
        return 'basic_text';
      }
      return 'os';
    },
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data),
  };
}
