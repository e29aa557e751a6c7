import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { NOT_OPENED, parseJsonLine, type LineCodec } from './line-codec';

/**
 * Each line of a file sealed on its own with AES-256-GCM (`node:crypto`): a fresh random
 * 96-bit IV a line, and the file's name and the format as associated data, so a line moved to
 * another file, or read as another format, does not open. The key is the data key's subkey
 * for this file (storage/data-key.ts `subkey`), asked for at every line: after "Forget this
 * till's data" the next line is sealed under the new key.
 *
 * A line is `sealed1:` and base64url(IV ‖ ciphertext ‖ tag): no newline, no JSON a reader could
 * take for a record. A line of today's plain JSON (a till upgraded from a version before the
 * data key) is still read, and the file is rewritten sealed (work-copy.ts).
 */
export const SEALED_PREFIX = 'sealed1:';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedLinesOptions {
  /** The AES-256 key (32 bytes), read at every line. */
  key: () => Buffer;
  /** The file's own name (not its folder: the user-data folder may move), named in every line. */
  fileName: string;
}

export function sealedLines(options: SealedLinesOptions): LineCodec {
  const associated = Buffer.from(`loyalty-till ${options.fileName} ${SEALED_PREFIX}`, 'utf8');
  return {
    encode(record) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', options.key(), iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(associated);
      const sealed = Buffer.concat([cipher.update(JSON.stringify(record), 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    decode(line) {
      if (!line.startsWith(SEALED_PREFIX)) return line.startsWith('{') ? parseJsonLine(line) : undefined;
      const bytes = Buffer.from(line.slice(SEALED_PREFIX.length), 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', options.key(), bytes.subarray(0, IV_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(associated);
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]);
        // Opened, so written by this till under this key: what it holds is the till's own JSON.
        return parseJsonLine(plain.toString('utf8')) ?? NOT_OPENED;
      } catch {
        // GCM cannot tell another key from a damaged line: the file's reader tells them apart.
        return NOT_OPENED;
      }
    },
    writes: (line) => line.startsWith(SEALED_PREFIX),
  };
}
