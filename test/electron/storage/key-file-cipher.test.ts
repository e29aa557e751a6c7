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
    expect(cipher.protection()).toBe('key_file');
    const sealed = cipher.encrypt(KEY);
    expect(sealed.toString('latin1')).not.toContain(KEY);
    expect(sealed.length).toBe(1 + 12 + 16 + Buffer.byteLength(KEY));
    expect((await readFile(keyFile)).length).toBe(32);
    if (onPosix) expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    // Each sealing has its own nonce.
    expect(cipher.encrypt(KEY).equals(sealed)).toBe(false);
    // A new process (a restart) opens it with the same key file.
    expect(createKeyFileCipher(keyFile).decrypt(sealed)).toBe(KEY);
  });

  test('refuses a changed file, another key file, and a missing one', async () => {
    const sealed = createKeyFileCipher(keyFile).encrypt(KEY);
    const changed = Buffer.from(sealed);
    changed[changed.length - 1]! ^= 1;
    expect(() => createKeyFileCipher(keyFile).decrypt(changed)).toThrow();
    const otherFile = join(dir, 'other.key');
    createKeyFileCipher(otherFile).encrypt('x');
    expect(() => createKeyFileCipher(otherFile).decrypt(sealed)).toThrow();
    expect(() => createKeyFileCipher(join(dir, 'missing.key')).decrypt(sealed)).toThrow(/missing/);
  });

  test.runIf(onPosix)('narrows a key file restored with wider permissions', async () => {
    const sealed = createKeyFileCipher(keyFile).encrypt(KEY);
    await chmod(keyFile, 0o644);
    expect(createKeyFileCipher(keyFile).decrypt(sealed)).toBe(KEY);
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
