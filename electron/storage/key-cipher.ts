import type { KeyProtection } from '../../common/contract';

/**
 * What the vault needs from an encryption provider. In the app this is Electron's
 * `safeStorage` (see `safe-storage-cipher.ts`); tests inject their own so the vault's
 * logic runs under plain Node.
 */
export interface KeyCipher {
  /** How well this cipher protects data at rest, as of now. */
  protection(): KeyProtection;
  /** Throws when encryption is unavailable. */
  encrypt(plain: string): Buffer;
  /** Throws when the data cannot be decrypted (wrong keychain, corrupt file). */
  decrypt(data: Buffer): string;
}
