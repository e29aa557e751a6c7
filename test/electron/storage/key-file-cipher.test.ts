import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createKeyFileCipher } from '../../../electron/storage/key-file-cipher';
import { openVault } from '../../../electron/storage/vault';
import { createCapturedLog } from '../../support/captured-log';

const KEY = 'live-key-0123456789-abcd';
const onPosix = process.platform !== 'win32';

describe('the key-file cipher (the browser shell’s vault)', () => {
  let dir: string;
  let keyFile: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-key-file-'));
    keyFile = join(dir, 'api-key.key');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  test('seals with AES-256-GCM under a 32-byte key file readable by this user only', async () => {
    const cipher = createKeyFileCipher(keyFile);
    expect(await cipher.protection()).toBe('key_file');
    const sealed = await cipher.encrypt(KEY);
    expect(sealed.toString('latin1')).not.toContain(KEY);
    expect(sealed.length).toBe(1 + 12 + 16 + Buffer.byteLength(KEY));
    expect((await readFile(keyFile)).length).toBe(32);
    if (onPosix) expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    // Each sealing has its own nonce.
    expect((await cipher.encrypt(KEY)).equals(sealed)).toBe(false);
    // A new process (a restart) opens it with the same key file.
    expect(await createKeyFileCipher(keyFile).decrypt(sealed)).toEqual({ plain: KEY, reseal: false });
  });

  test('opens a file in the format the first versions wrote, sealed here without the cipher', async () => {
    // The format byte 1, a 12-byte nonce, the 16-byte tag, then the text, under the key file's
    // key with the purpose as associated data: what earlier versions left in users' folders.
    const key = randomBytes(32);
    await writeFile(keyFile, key, { mode: 0o600 });
    const iv = randomBytes(12);
    const sealer = createCipheriv('aes-256-gcm', key, iv);
    sealer.setAAD(Buffer.from('loyalty-till api key'));
    const body = Buffer.concat([sealer.update(KEY, 'utf8'), sealer.final()]);
    const earlier = Buffer.concat([Buffer.from([1]), iv, sealer.getAuthTag(), body]);
    expect(await createKeyFileCipher(keyFile).decrypt(earlier)).toEqual({ plain: KEY, reseal: false });
  });

  test('refuses a changed file, another key file, and a missing one', async () => {
    const sealed = await createKeyFileCipher(keyFile).encrypt(KEY);
    const changed = Buffer.from(sealed);
    changed[changed.length - 1]! ^= 1;
    await expect(createKeyFileCipher(keyFile).decrypt(changed)).rejects.toThrow();
    const otherFile = join(dir, 'other.key');
    await createKeyFileCipher(otherFile).encrypt('x');
    await expect(createKeyFileCipher(otherFile).decrypt(sealed)).rejects.toThrow();
    await expect(createKeyFileCipher(join(dir, 'missing.key')).decrypt(sealed)).rejects.toThrow(/missing/);
  });

  test('two first sealings at once share one key file: both open', async () => {
    const cipher = createKeyFileCipher(keyFile);
    const [first, second] = await Promise.all([cipher.encrypt('first'), cipher.encrypt('second')]);
    expect((await cipher.decrypt(first)).plain).toBe('first');
    expect((await cipher.decrypt(second)).plain).toBe('second');
  });

  test.runIf(onPosix)('narrows a key file restored with wider permissions', async () => {
    const sealed = await createKeyFileCipher(keyFile).encrypt(KEY);
    await chmod(keyFile, 0o644);
    expect((await createKeyFileCipher(keyFile).decrypt(sealed)).plain).toBe(KEY);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
  });

  test('in the vault: the key is stored, reported as key_file, and the log says it is not the OS’s store', async () => {
    const log = createCapturedLog();
    const file = join(dir, 'api-key.bin');
    const vault = await openVault({ file, cipher: createKeyFileCipher(keyFile), log });
    expect(await vault.store(KEY)).toEqual({ ok: true });
    expect(vault.status()).toEqual({ set: true, lastFour: 'abcd', protection: 'key_file' });
    expect((await readFile(file)).toString('latin1')).not.toContain(KEY);
    expect(log.text()).toMatch(/not with the operating system's key store/);
    const reopened = await openVault({ file, cipher: createKeyFileCipher(keyFile), log });
    expect(reopened.key()).toBe(KEY);
    await writeFile(keyFile, Buffer.alloc(32));
    const wrongKey = await openVault({ file, cipher: createKeyFileCipher(keyFile), log });
    expect(wrongKey.key()).toBeNull();
  });
});
