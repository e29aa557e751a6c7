import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, readFile, rm, writeFile } from 'node:fs/promises';
import type { KeyCipher } from './key-cipher';

const KEY_BYTES = 32; // AES-256
const IV_BYTES = 12; // GCM's recommended nonce size
const TAG_BYTES = 16;
/** The first byte of every sealed file: a later format can be told apart. */
const FORMAT = 1;
/**
 * Binds the sealed bytes to their purpose: data sealed for anything else does not open as a
 * key. Kept as the first files were written; the data key's sealed text names its own purpose.
 */
const PURPOSE = Buffer.from('loyalty-till api key');

/**
 * The vault's cipher where no OS key store can be reached (the browser shell, which runs in
 * plain Node): AES-256-GCM under a random key kept in `keyFile`, readable by this user only
 * (mode 0600). It keeps the API key out of plain text on disk and out of backups of the
 * vault file alone, but anyone who can read the user-data folder can read both files; so it
 * reports `key_file`, and Settings says the key is not protected by the operating system.
 * The till's data key (`data-key.ts`) is sealed the same way, under the same key file.
 *
 * Asynchronous like Electron's safeStorage, behind the same interface; the format is the one
 * files were written in before, so they open unchanged.
 */
export function createKeyFileCipher(keyFile: string): KeyCipher {
  const existingKey = async (): Promise<Buffer | null> => {
    let key: Buffer;
    try {
      key = await readFile(keyFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (key.length !== KEY_BYTES) throw new Error(`The key file ${keyFile} is not a ${KEY_BYTES}-byte key.`);
    // A copy restored with wider permissions is narrowed again; on Windows this is a no-op.
    await chmod(keyFile, 0o600);
    return key;
  };
  const keyForSealing = async (): Promise<Buffer> => {
    const found = await existingKey();
    if (found) return found;
    const key = randomBytes(KEY_BYTES);
    // Written whole beside it, then linked into place: `link` never replaces a key file another
    // sealing has just made (what it sealed would not open), and nobody reads a half-written one.
    const temp = `${keyFile}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, key, { mode: 0o600, flag: 'wx' });
    try {
      await link(temp, keyFile);
      return key;
    } catch (error) {
      // Two first sealings at once (the API key and the data key): the first one's key wins.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const written = await existingKey();
      if (!written) throw error;
      return written;
    } finally {
      await rm(temp, { force: true });
    }
  };

  return {
    protection: async () => 'key_file',
    async encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await keyForSealing(), iv);
      cipher.setAAD(PURPOSE);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), sealed]);
    },
    async decrypt(data) {
      const key = await existingKey();
      if (!key) throw new Error(`The key file ${keyFile} is missing.`);
      if (data.length < 1 + IV_BYTES + TAG_BYTES || data[0] !== FORMAT)
        throw new Error('The stored key is not in the key-file format.');
      const iv = data.subarray(1, 1 + IV_BYTES);
      const tag = data.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(PURPOSE);
      decipher.setAuthTag(tag);
      // final() throws when the tag does not match: a changed file or another key file.
      const plain = Buffer.concat([decipher.update(data.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
      return { plain: plain.toString('utf8'), reseal: false };
    },
  };
}
