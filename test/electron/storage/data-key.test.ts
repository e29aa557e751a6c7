import { afterEach, describe, expect, test } from 'vitest';
import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANNELS, type DataKeyGrant } from '../../../common/contract';
import { DATA_KEY_FILE, DATA_KEY_MARKER_FILE, openDataKey, readDataKey } from '../../../electron/storage/data-key';
import { CipherUnavailableError, type KeyCipher } from '../../../electron/storage/key-cipher';
import { createKeyFileCipher } from '../../../electron/storage/key-file-cipher';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';
import { createTestCipher } from '../../support/test-cipher';

// The till's data key (electron/storage/data-key.ts): made once, sealed by the vault's cipher,
// handed to the till's page over `dataKey`, lost out loud, forgotten on purpose.

const dirs: string[] = [];
const fixtures: CoreFixture[] = [];
const onPosix = process.platform !== 'win32';

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'till-data-key-'));
  dirs.push(dir);
  return dir;
}

async function till(options: Parameters<typeof createCoreFixture>[0] = {}): Promise<CoreFixture> {
  const fixture = await createCoreFixture(options);
  fixtures.push(fixture);
  return fixture;
}

afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function grantOf(fixture: CoreFixture): Promise<DataKeyGrant> {
  const answer = await fixture.call('dataKey');
  if (!answer.ok) throw new Error(`dataKey refused: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

/** Every spelling of the key a file or a log line could carry it in. */
function spellings(base64: string): Buffer[] {
  const raw = Buffer.from(base64, 'base64');
  return [raw, Buffer.from(base64), Buffer.from(raw.toString('base64url')), Buffer.from(raw.toString('hex'))];
}

/** Every file under `dir`, whole. */
async function filesUnder(dir: string): Promise<Array<{ name: string; bytes: Buffer }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  return Promise.all(
    files.map(async (entry) => ({
      name: join(entry.parentPath, entry.name).slice(dir.length + 1),
      bytes: await readFile(join(entry.parentPath, entry.name)),
    })),
  );
}

describe('the data key', () => {
  test('made at the first start, 32 random bytes, and the same after a restart (a new core on the folder)', async () => {
    const fixture = await till();
    const first = await grantOf(fixture);
    expect(first).toMatchObject({ state: 'ready', protection: 'os', kept: true });
    expect(Buffer.from(first.key, 'base64')).toHaveLength(32);
    expect(Date.parse(first.createdAt)).not.toBeNaN();

    await fixture.restart();
    expect(await grantOf(fixture)).toEqual(first);
    // Another till's folder has another key.
    const other = await till();
    expect((await grantOf(other)).key).not.toBe(first.key);
  });

  test('sealed, never plain: no file of the folder holds its bytes, base64, base64url or hex; 0600', async () => {
    const fixture = await till();
    const { key } = await grantOf(fixture);
    const files = await filesUnder(fixture.userDataDir);
    expect(files.map((file) => file.name)).toEqual(expect.arrayContaining([DATA_KEY_FILE, DATA_KEY_MARKER_FILE]));
    for (const file of files)
      for (const spelling of spellings(key)) expect(file.bytes.includes(spelling), file.name).toBe(false);
    // The sealed file opens with the vault's cipher, to the key and its purpose.
    const opened = await createTestCipher().decrypt(await readFile(join(fixture.userDataDir, DATA_KEY_FILE)));
    expect(JSON.parse(opened.plain)).toMatchObject({ purpose: 'loyalty-till data key', key });
    if (onPosix) {
      for (const name of [DATA_KEY_FILE, DATA_KEY_MARKER_FILE])
        expect(((await stat(join(fixture.userDataDir, name))).mode & 0o777).toString(8), name).toBe('600');
    }
  });

  test('in the browser shell, sealed with the key file: reported as key_file, and Settings learns it', async () => {
    const folder = await tempDir();
    const cipher = createKeyFileCipher(join(folder, 'api-key.key'));
    const dataKey = await openDataKey({ folder, cipher, log: createCapturedLog() });
    expect(dataKey.grant()).toMatchObject({ state: 'ready', protection: 'key_file', kept: true });
    expect(dataKey.status()).toEqual({ state: 'ready', protection: 'key_file', kept: true });
    const reopened = await openDataKey({
      folder,
      cipher: createKeyFileCipher(join(folder, 'api-key.key')),
      log: createCapturedLog(),
    });
    expect(reopened.grant().key).toBe(dataKey.grant().key);
  });

  test('read beside the till (the health check): the same key, and nothing moved, made or sealed again', async () => {
    const folder = await tempDir();
    const keyFile = join(folder, 'api-key.key');
    expect(await readDataKey(folder, createKeyFileCipher(keyFile))).toBeNull();
    expect(await readdir(folder)).toEqual([]);

    const dataKey = await openDataKey({ folder, cipher: createKeyFileCipher(keyFile), log: createCapturedLog() });
    const before = await filesUnder(folder);
    const read = await readDataKey(folder, createKeyFileCipher(keyFile));
    // Its subkeys, the till's own: the key itself does not leave data-key.ts.
    expect(read?.subkey('work copy v1').equals(dataKey.subkey('work copy v1'))).toBe(true);
    expect(read?.subkey('another use').equals(dataKey.subkey('work copy v1'))).toBe(false);

    // A key that will not open is the till's to mend at its next start: the reader only says so.
    await expect(readDataKey(folder, createKeyFileCipher(join(folder, 'other.key')))).rejects.toThrow();
    const sealed = join(folder, DATA_KEY_FILE);
    await writeFile(sealed, await createTestCipher().encrypt('sk_live_not_a_data_key_0001'));
    await expect(readDataKey(folder, createTestCipher())).rejects.toThrow(/not as a data key/);
    await writeFile(sealed, before.find((file) => file.name === DATA_KEY_FILE)!.bytes);
    expect(await filesUnder(folder)).toEqual(before);
  });

  test('lost when its sealed file is corrupted: a new key, the reason, the old file kept aside', async () => {
    const fixture = await till();
    const before = await grantOf(fixture);
    const sealed = join(fixture.userDataDir, DATA_KEY_FILE);
    const corrupted = await readFile(sealed);
    corrupted[corrupted.length - 1]! ^= 0xff;
    await writeFile(sealed, corrupted);

    await fixture.restart();
    const after = await grantOf(fixture);
    expect(after).toMatchObject({ state: 'lost', reason: 'unreadable', kept: true });
    expect(after.key).not.toBe(before.key);
    expect(after.state === 'lost' && Date.parse(after.lostAt)).not.toBeNaN();
    const names = await readdir(fixture.userDataDir);
    const aside = names.filter((name) => name.startsWith(`${DATA_KEY_FILE}.unreadable-`));
    expect(aside).toHaveLength(1);
    expect((await readFile(join(fixture.userDataDir, aside[0]!))).equals(corrupted)).toBe(true);
    expect(fixture.log.text()).toMatch(/data key could not be opened \(unreadable/);
    // Settings learns the loss too, never the key.
    const state = await fixture.call('getState');
    expect(state.ok && state.data.dataKey).toEqual({
      state: 'lost',
      loss: { reason: 'unreadable', lostAt: expect.any(String) },
      protection: 'os',
      kept: true,
    });

    // Lost for that start only: the next one opens the new key.
    await fixture.restart();
    expect(await grantOf(fixture)).toEqual({
      state: 'ready',
      key: after.key,
      createdAt: after.createdAt,
      protection: 'os',
      kept: true,
    });
  });

  test('lost when the cipher cannot open it (another keyring), and when the sealed text is not a data key', async () => {
    const folder = await tempDir();
    const made = await openDataKey({
      folder,
      cipher: createKeyFileCipher(join(folder, 'a.key')),
      log: createCapturedLog(),
    });
    const otherKeyring = await openDataKey({
      folder,
      cipher: createKeyFileCipher(join(folder, 'b.key')),
      log: createCapturedLog(),
    });
    expect(otherKeyring.grant()).toMatchObject({ state: 'lost', reason: 'unreadable' });
    expect(otherKeyring.grant().key).not.toBe(made.grant().key);

    // The API key's sealed bytes in its place: they open, but not as a data key.
    const cipher = createTestCipher();
    await writeFile(join(folder, DATA_KEY_FILE), await cipher.encrypt('sk_live_not_a_data_key_0001'));
    const log = createCapturedLog();
    const wrongPurpose = await openDataKey({ folder, cipher, log });
    expect(wrongPurpose.grant()).toMatchObject({ state: 'lost', reason: 'unreadable' });
    expect(log.text()).toMatch(/opened, but not as a data key/);
  });

  test('a store that cannot answer now is asked again; one that never does is a loss of its own', async () => {
    const folder = await tempDir();
    const base = createTestCipher();
    const first = await openDataKey({ folder, cipher: base, log: createCapturedLog() });
    let refusals = 2;
    const slow: KeyCipher = {
      ...base,
      decrypt: async (data) => {
        if (refusals-- > 0)
          throw new CipherUnavailableError('safeStorage.decryptStringAsync is temporarily unavailable.');
        return base.decrypt(data);
      },
    };
    const patient = await openDataKey({ folder, cipher: slow, log: createCapturedLog(), unavailableWaitsMs: [1, 1] });
    expect(patient.grant()).toMatchObject({ state: 'ready', key: first.grant().key });

    const never: KeyCipher = {
      ...base,
      decrypt: async () => {
        throw new CipherUnavailableError('safeStorage.decryptStringAsync is temporarily unavailable.');
      },
    };
    const gaveUp = await openDataKey({ folder, cipher: never, log: createCapturedLog(), unavailableWaitsMs: [1, 1] });
    expect(gaveUp.grant()).toMatchObject({ state: 'lost', reason: 'store_unavailable' });
    expect((await readdir(folder)).some((name) => name.startsWith(`${DATA_KEY_FILE}.unreadable-`))).toBe(true);
  });

  test('lost when the sealed file is gone while the marker says the till made one; a first start is not', async () => {
    const fixture = await till();
    const before = await grantOf(fixture);
    await unlink(join(fixture.userDataDir, DATA_KEY_FILE));
    await fixture.restart();
    const after = await grantOf(fixture);
    expect(after).toMatchObject({ state: 'lost', reason: 'missing' });
    expect(after.key).not.toBe(before.key);

    // Without the marker too (a folder wiped whole), it is a first start: nothing to explain.
    await unlink(join(fixture.userDataDir, DATA_KEY_FILE));
    await unlink(join(fixture.userDataDir, DATA_KEY_MARKER_FILE));
    await fixture.restart();
    expect(await grantOf(fixture)).toMatchObject({ state: 'ready' });
  });

  test('where nothing can seal it, it lives for one run, and the next start says so', async () => {
    const fixture = await till({ protection: 'unavailable' });
    expect(await grantOf(fixture)).toMatchObject({ state: 'ready', protection: 'unavailable', kept: false });
    expect(await readdir(fixture.userDataDir)).not.toContain(DATA_KEY_FILE);
    await fixture.restart();
    expect(await grantOf(fixture)).toMatchObject({ state: 'lost', reason: 'not_kept', kept: false });
  });

  test('forget destroys it, the sealed file and any kept aside, and makes another', async () => {
    const folder = await tempDir();
    const cipher = createTestCipher();
    await writeFile(join(folder, `${DATA_KEY_FILE}.unreadable-1`), 'an old unreadable one');
    const log = createCapturedLog();
    const dataKey = await openDataKey({ folder, cipher, log });
    const old = dataKey.grant();
    const oldSealed = await readFile(join(folder, DATA_KEY_FILE));

    await dataKey.forget();
    const fresh = dataKey.grant();
    expect(fresh).toMatchObject({ state: 'ready', kept: true });
    expect(fresh.key).not.toBe(old.key);
    expect((await readdir(folder)).sort()).toEqual([DATA_KEY_FILE, DATA_KEY_MARKER_FILE]);
    expect((await readFile(join(folder, DATA_KEY_FILE))).equals(oldSealed)).toBe(false);
    // The new one is what opens from now on.
    expect((await openDataKey({ folder, cipher, log })).grant().key).toBe(fresh.key);
    expect(log.text()).toMatch(/data key was destroyed/);
  });

  test('a lost key, forgotten, is ready again: the loss was this start’s', async () => {
    const fixture = await till();
    await unlink(join(fixture.userDataDir, DATA_KEY_FILE));
    const folder = fixture.userDataDir;
    const dataKey = await openDataKey({ folder, cipher: createTestCipher(), log: createCapturedLog() });
    expect(dataKey.status().state).toBe('lost');
    await dataKey.forget();
    expect(dataKey.status()).toEqual({ state: 'ready', protection: 'os', kept: true });
  });
});

describe('the data key over the bridge', () => {
  test('the till’s page gets it; the customer display’s page, another origin or no frame, never', async () => {
    const fixture = await till();
    expect((await grantOf(fixture)).state).toBe('ready');
    const handler = fixture.core.handlers[CHANNELS.dataKey];
    for (const sender of [
      { url: 'app://display/display.html' },
      { url: 'http://127.0.0.1:41234/secret/display' },
      { url: 'https://evil.example/' },
      null,
    ]) {
      const answer = (await handler(sender, undefined)) as { ok: boolean; error?: { code?: string } };
      expect(answer, JSON.stringify(sender)).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
      expect(JSON.stringify(answer)).not.toMatch(/"key"/);
    }
    // Nor does it take a payload of any shape.
    expect(await fixture.call('dataKey', { key: 'mine' })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });

  test('never in the log, and scrubbed from every answer but its own', async () => {
    const fixture = await till();
    const { key } = await grantOf(fixture);
    const raw = Buffer.from(key, 'base64');
    // A page error that quotes the key, in each spelling, and a line of the main process's own.
    for (const spelling of [key, raw.toString('base64url'), raw.toString('hex')]) {
      expect(await fixture.call('logError', { message: `failed with ${spelling}`, source: 'test' })).toMatchObject({
        ok: true,
      });
    }
    fixture.core.log.warn(`an unexpected line with ${key}`);
    for (const spelling of spellings(key).slice(1)) expect(fixture.log.text()).not.toContain(spelling.toString());
    expect(fixture.log.text()).toContain('[redacted]');

    // Another answer that would carry it (a till name set to it) has it removed.
    const named = await fixture.call('updateSettings', { tillName: key });
    expect(JSON.stringify(named)).not.toContain(key);
    // Its own answer carries it whole.
    expect((await grantOf(fixture)).key).toBe(key);
  });
});
