import type { KeyProtection } from '../../common/contract';
import type { KeyCipher } from '../../electron/storage/key-cipher';

const MARK = Buffer.from('test-cipher:v1:');
const PAD = Buffer.from('a fixed pad that makes the bytes on disk unlike the plain text');

function xor(data: Buffer): Buffer {
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i]! ^ PAD[i % PAD.length]! ^ 0x5a;
  return out;
}

/**
 * A stand-in for safeStorage in tests: reversible, and never the identity, so a test can
 * prove the key is not written in plain text. `protection` exercises the vault's refusal
 * ('unavailable': encrypt rejects, as safeStorage does) and warning ('basic_text') paths.
 * Asynchronous, as the cipher it stands in for.
 */
export function createTestCipher(protection: KeyProtection = 'os'): KeyCipher {
  return {
    protection: async () => protection,
    async encrypt(plain) {
      if (protection === 'unavailable') throw new Error('Encryption is not available on this machine.');
      return Buffer.concat([MARK, xor(Buffer.from(plain, 'utf8'))]);
    },
    async decrypt(data) {
      if (!data.subarray(0, MARK.length).equals(MARK)) throw new Error('Not data from this cipher.');
      return { plain: xor(data.subarray(MARK.length)).toString('utf8'), reseal: false };
    },
  };
}
