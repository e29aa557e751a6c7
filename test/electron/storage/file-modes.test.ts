import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seenTillsFile } from '../../../electron/shop-ledger/seen-tills';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

const rmDir = (dir: string) => rm(dir, { recursive: true, force: true });

/** Every file under `dir`, with its permission bits. */
async function modesUnder(dir: string): Promise<Record<string, number>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const modes: Record<string, number> = {};
  for (const entry of entries.filter((found) => found.isFile())) {
    const path = join(entry.parentPath, entry.name);
    modes[path.slice(dir.length + 1)] = (await stat(path)).mode & 0o777;
  }
  return modes;
}

describe.skipIf(process.platform === 'win32')('the files the app writes in its folder (POSIX modes)', () => {
  let umask: number;
  let till: CoreFixture | null = null;
  beforeEach(() => {
    // The usual umask, under which a file made without a mode is readable by every account.
    umask = process.umask(0o022);
  });
  afterEach(async () => {
    await till?.dispose();
    till = null;
    process.umask(umask);
  });

  it('are all 0600: settings, keys, PIN, demo state and data, the shop’s tills; folders 0700', async () => {
    till = await createCoreFixture();
    const { userDataDir } = till;
    // The control: under this umask a file made without a mode is not private.
    await writeFile(join(userDataDir, 'control.txt'), 'x');
    expect((await stat(join(userDataDir, 'control.txt'))).mode & 0o777).toBe(0o644);

    // The demo's files, while it runs.
    expect(await till.call('startDemo')).toMatchObject({ ok: true });
    expect(await till.call('updateSettings', { tillName: 'Till 3' })).toMatchObject({ ok: true });
    await seenTillsFile(join(userDataDir, 'shop-tills.json')).save('shop-tag', [
      { till: 'Till 2', host: '192.168.1.20', port: 47231, at: 1 },
    ]);
    const whileDemo = await modesUnder(userDataDir);
    // A real service, its key, a PIN and a wrong try (the back-off is written too).
    expect(await till.call('updateSettings', { baseUrl: 'https://loyalty.example.com' })).toMatchObject({ ok: true });
    expect(await till.call('setApiKey', { apiKey: 'sk_live_file_modes_0001' })).toMatchObject({ ok: true });
    expect(await till.call('setManagerPin', { pin: '739164' })).toMatchObject({ ok: true });
    await till.call('endManagerApproval');
    expect(await till.call('verifyManagerPin', { pin: '000000' })).toMatchObject({ data: { accepted: false } });
    await till.core.dispose();
    const modes = { ...whileDemo, ...(await modesUnder(userDataDir)) };
    delete modes['control.txt'];
    expect(Object.keys(modes)).toEqual(
      expect.arrayContaining([
        'settings.json',
        'api-key.bin',
        'data-key.bin',
        'data-key.made.json',
        'manager-pin.json',
        'shop-tills.json',
        join('demo', 'state.json'),
        join('demo', 'sandbox.json'),
      ]),
    );
    for (const [file, mode] of Object.entries(modes)) expect(mode.toString(8), file).toBe('600');
    expect(((await stat(join(userDataDir, 'demo'))).mode & 0o777).toString(8)).toBe('700');
    till = null;
    await rmDir(userDataDir);
  });
});
