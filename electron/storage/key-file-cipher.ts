import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { KeyCipher } from './key-cipher';

const KEY_BYTES = 32; // AES-256
const IV_BYTES = 12; // GCM's recommended nonce size
const TAG_BYTES = 16;
/** The first byte of every sealed file: a later format can be told apart. */
const FORMAT = 1;
/** Binds the sealed bytes to their purpose: data sealed for anything else does not open as a key. */
const PURPOSE = Buffer.from('loyalty-till api key');

/**
 * The vault's cipher where no OS key store can be reached (the browser shell, which runs in
 * plain Node): AES-256-GCM under a random key kept in `keyFile`, readable by this user only
 * (mode 0600). It keeps the API key out of plain text on disk and out of backups of the
 * vault file alone, but anyone who can read the user-data folder can read both files; so it
 * reports `key_file`, and Settings says the key is not protected by the operating system.
 */
export function createKeyFileCipher(keyFile: string): KeyCipher {
  const existingKey = (): Buffer | null => {
    let key: Buffer;
    try {
      key = readFileSync(keyFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (key.length !== KEY_BYTES) throw new Error(`The key file ${keyFile} is not a ${KEY_BYTES}-byte key.`);
    // A copy restored with wider permissions is narrowed again; on Windows this is a no-op.
    chmodSync(keyFile, 0o600);
    return key;
  };
  const keyForSealing = (): Buffer => {
    const found = existingKey();
    if (found) return found;
    const key = randomBytes(KEY_BYTES);
    // `wx`: never replace a key file another process has just written (the old vault would not open).
    writeFileSync(keyFile, key, { mode: 0o600, flag: 'wx' });
    return key;
  };

  return {
    protection: () => 'key_file',
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyForSealing(), iv);
      cipher.setAAD(PURPOSE);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), sealed]);
    },
    decrypt(data) {
      const key = existingKey();
      if (!key) throw new Error(`The key file ${keyFile} is missing.`);
      if (data.length < 1 + IV_BYTES + TAG_BYTES || data[0] !== FORMAT)
        throw new Error('The stored key is not in the key-file format.');
      const iv = data.subarray(1, 1 + IV_BYTES);
      const tag = data.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(PURPOSE);
      decipher.setAuthTag(tag);
      // final() throws when the tag does not match: a changed file or another key file.
      return Buffer.concat([decipher.update(data.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
