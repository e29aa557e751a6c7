import { afterEach, describe, expect, test } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVault } from '../../../electron/storage/vault';
import { createTestCipher } from '../../support/test-cipher';
import { createCapturedLog } from '../../support/captured-log';
import { createCoreFixture } from '../../support/app-core-fixture';

const KEY = 'sk_live_VaultRoundTrip_9f8e7d';
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'till-vault-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the vault', () => {
  test('round-trips the key through the cipher and a restart, and never writes it in plain text', async () => {
    const dir = await tempDir();
    const file = join(dir, 'api-key.bin');
    const log = createCapturedLog();
    const vault = await openVault({ file, cipher: createTestCipher('os'), log });
    expect(await vault.store(KEY)).toEqual({ ok: true });
    expect(vault.key()).toBe(KEY);
    expect(vault.status()).toEqual({ set: true, lastFour: '8e7d', protection: 'os' });

    const onDisk = await readFile(file);
    expect(onDisk.includes(Buffer.from(KEY))).toBe(false);
    expect(onDisk.toString('latin1')).not.toContain(KEY.slice(0, 8));
    // Only the key file: no temp file left behind by the atomic write.
    expect(await readdir(dir)).toEqual(['api-key.bin']);

    const reopened = await openVault({ file, cipher: createTestCipher('os'), log });
    expect(reopened.key()).toBe(KEY);
    expect(log.text()).not.toContain(KEY);
  });

  test('refuses to store the key when no encryption is available, and says so', async () => {
    const dir = await tempDir();
    const vault = await openVault({
      file: join(dir, 'api-key.bin'),
      cipher: createTestCipher('unavailable'),
      log: createCapturedLog(),
    });
    const outcome = await vault.store(KEY);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toMatch(/no encryption/);
    expect(vault.status()).toEqual({ set: false, lastFour: null, protection: 'unavailable' });
    expect(await readdir(dir)).toEqual([]);
  });

  test('reports the Linux basic_text backend honestly and warns in the log', async () => {
    const dir = await tempDir();
    const log = createCapturedLog();
    const vault = await openVault({ file: join(dir, 'api-key.bin'), cipher: createTestCipher('basic_text'), log });
    expect(await vault.store(KEY)).toEqual({ ok: true });
    expect(vault.status().protection).toBe('basic_text');
    expect(log.text()).toMatch(/warn .*without real encryption/);
    expect(log.text()).toMatch(/NOT protected/);
  });

  test('a key file that cannot be decrypted is treated as not set, kept, and logged', async () => {
    const dir = await tempDir();
    const file = join(dir, 'api-key.bin');
    await writeFile(file, 'garbage from another machine');
    const log = createCapturedLog();
    const vault = await openVault({ file, cipher: createTestCipher('os'), log });
    expect(vault.status().set).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('garbage from another machine');
    expect(log.text()).toMatch(/could not be decrypted/);
  });

  test('sealed again at once when the store asks (a rotated key), and still the same key after', async () => {
    const dir = await tempDir();
    const file = join(dir, 'api-key.bin');
    const base = createTestCipher('os');
    await writeFile(file, await base.encrypt(KEY));
    const before = await readFile(file);
    // The OS's store opens the old bytes and says they were sealed under a key it has since
    // rotated; what it seals now ends in `|v2`, which it opens without asking again.
    const V2 = Buffer.from('|v2');
    const rotating = {
      ...base,
      decrypt: async (data: Buffer) => {
        const current = data.subarray(-V2.length).equals(V2);
        return { ...(await base.decrypt(current ? data.subarray(0, -V2.length) : data)), reseal: !current };
      },
      encrypt: async (plain: string) => Buffer.concat([await base.encrypt(plain), V2]),
    };
    const log = createCapturedLog();
    const vault = await openVault({ file, cipher: rotating, log });
    expect(vault.key()).toBe(KEY);
    const after = await readFile(file);
    expect(after.equals(before)).toBe(false);
    expect(after.subarray(-3).toString()).toBe('|v2');
    expect(log.text()).toMatch(/sealed again/);
    expect(log.text()).not.toContain(KEY);
    // Read back the same, and not sealed again when the store is content.
    expect((await openVault({ file, cipher: rotating, log })).key()).toBe(KEY);
    expect((await readFile(file)).equals(after)).toBe(true);
  });

  test('an empty file is no key, not a key of nothing', async () => {
    const dir = await tempDir();
    const file = join(dir, 'api-key.bin');
    await writeFile(file, '');
    const emptyOpens = { ...createTestCipher('os'), decrypt: async () => ({ plain: '', reseal: false }) };
    const vault = await openVault({ file, cipher: emptyOpens, log: createCapturedLog() });
    expect(vault.status()).toEqual({ set: false, lastFour: null, protection: 'os' });
  });

  test('clear removes the key from memory and disk', async () => {
    const dir = await tempDir();
    const vault = await openVault({
      file: join(dir, 'api-key.bin'),
      cipher: createTestCipher(),
      log: createCapturedLog(),
    });
    await vault.store(KEY);
    await vault.clear();
    expect(vault.key()).toBeNull();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('the key through the bridge', () => {
  test('setApiKey on a machine without encryption is a validation failure on apiKey, and nothing is stored', async () => {
    const till = await createCoreFixture({ protection: 'unavailable' });
    try {
      const result = await till.call('setApiKey', { apiKey: KEY });
      expect(result).toMatchObject({
        ok: false,
        error: { kind: 'validation', fields: { apiKey: expect.stringMatching(/not saved/) } },
      });
      const state = await till.call('getState');
      expect(state.ok && state.data.key).toEqual({ set: false, lastFour: null, protection: 'unavailable' });
    } finally {
      await till.dispose();
    }
  });

  test('the renderer learns only set, last four and protection', async () => {
    const till = await createCoreFixture({ protection: 'basic_text' });
    try {
      const result = await till.call('setApiKey', { apiKey: `  ${KEY}  ` });
      expect(result.ok && result.data.key).toEqual({ set: true, lastFour: KEY.slice(-4), protection: 'basic_text' });
      expect(JSON.stringify(result)).not.toContain(KEY);
    } finally {
      await till.dispose();
    }
  });
});
