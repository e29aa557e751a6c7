import type { KeyProtection } from '../../common/contract';

/** What a cipher gives back of sealed bytes: the text, and whether it should be sealed again. */
export interface Opened {
  plain: string;
  /**
   * The store sealed it with a key it has since rotated, or a better one is now available
   * (Electron's `shouldReEncrypt`): the caller seals `plain` again and writes the new bytes.
   */
  reseal: boolean;
}

/**
 * What the vault (the API key) and the data key need from an encryption provider. In the app
 * this is Electron's asynchronous `safeStorage` (see `shell/safe-storage-cipher.ts`); in the
 * browser shell a key file (`key-file-cipher.ts`); tests inject their own so the logic runs
 * under plain Node. Every call is asynchronous: the OS's store may be asked (a keychain
 * prompt, a D-Bus call), and Electron 46 has no synchronous API left.
 */
export interface KeyCipher {
  /** How well this cipher protects data at rest, as of now. */
  protection(): Promise<KeyProtection>;
  /** Rejects when encryption is unavailable. */
  encrypt(plain: string): Promise<Buffer>;
  /**
   * Rejects when the data cannot be decrypted (another keychain, a corrupt file), with a
   * `CipherUnavailableError` when the store only cannot be asked right now.
   */
  decrypt(data: Buffer): Promise<Opened>;
}

/**
 * The OS's store said it is temporarily unavailable (Electron: "safeStorage.decryptStringAsync
 * is temporarily unavailable. Please try again."): the sealed bytes may open later.
 */
export class CipherUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CipherUnavailableError';
  }
}
