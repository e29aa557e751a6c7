import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importApiKey, KEY_IMPORT_EXIT, MAX_KEY_INPUT_BYTES } from '../../../electron/storage/key-import';
import { openVault } from '../../../electron/storage/vault';
import { createKeyFileCipher } from '../../../electron/storage/key-file-cipher';
import { createTestCipher } from '../../support/test-cipher';
import { createCapturedLog } from '../../support/captured-log';
import type { KeyProtection } from '../../../common/contract';

const KEY = 'sk_live_Q7w3ZtY9mK2pL8xV';
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BROWSER_SHELL = join(ROOT, 'electron', 'browser-shell', 'main.ts');

/** Runs the import with `stdin` as standard input; answers the status, what was said, and the log. */
async function run(userDataDir: string, stdin: Readable & { isTTY?: boolean }, protection: KeyProtection = 'os') {
  const output = new PassThrough();
  const said: Buffer[] = [];
  output.on('data', (chunk: Buffer) => said.push(chunk));
  const log = createCapturedLog();
  const status = await importApiKey({
    input: stdin,
    output,
    userDataDir,
    cipher: createTestCipher(protection),
    log,
  });
  return { status, said: Buffer.concat(said).toString('utf8'), log: log.text() };
}

describe('--import-api-key', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-import-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stores the key from standard input through the vault, sealed, and says nothing of it', async () => {
    const { status, said, log } = await run(dir, Readable.from([`${KEY}\r\n`]));
    expect(status).toBe(KEY_IMPORT_EXIT.stored);
    expect(said).toBe('Loyalty Till: The API key was stored, encrypted, for this user account.\n');
    expect(said + log).not.toContain(KEY);
    expect(said + log).not.toContain(KEY.slice(-4));
    const sealed = await readFile(join(dir, 'api-key.bin'));
    expect(sealed.toString('latin1')).not.toContain(KEY);
    // Read back exactly as the app reads it at start.
    const vault = await openVault({
      file: join(dir, 'api-key.bin'),
      cipher: createTestCipher(),
      log: createCapturedLog(),
    });
    expect(vault.key()).toBe(KEY);
    // No file of its own holds the key in the clear.
    expect(await readdir(dir)).toEqual(['api-key.bin']);
  });

  it('takes a key that arrives in pieces', async () => {
    const { status } = await run(dir, Readable.from([KEY.slice(0, 5), KEY.slice(5), '\n']));
    expect(status).toBe(KEY_IMPORT_EXIT.stored);
  });

  it.each([
    ['nothing', []],
    ['only whitespace', [' \r\n\t']],
  ])('exits with status 2 for %s, storing nothing', async (_what, chunks) => {
    const { status, said } = await run(dir, Readable.from(chunks as string[]));
    expect(status).toBe(KEY_IMPORT_EXIT.empty);
    expect(said).toMatch(/No API key came on standard input/);
    expect(await readdir(dir)).toEqual([]);
  });

  it.each([
    ['a key with spaces', 'not a key at all', /no spaces or special characters/],
    ['a short key', 'abc', /too short/],
    ['a key with a control character', `${KEY}\u0007`, /invisible control characters/],
  ])('exits with status 3 for %s, storing nothing and echoing nothing', async (_what, input, why) => {
    const { status, said } = await run(dir, Readable.from([input]));
    expect(status).toBe(KEY_IMPORT_EXIT.refused);
    expect(said).toMatch(why);
    expect(said).not.toContain(input.trim());
    expect(await readdir(dir)).toEqual([]);
  });

  it('exits with status 3 for more input than a key, without keeping it', async () => {
    const { status, said } = await run(dir, Readable.from([Buffer.alloc(MAX_KEY_INPUT_BYTES + 1, 0x61)]));
    expect(status).toBe(KEY_IMPORT_EXIT.refused);
    expect(said).toMatch(/more than 4096 bytes/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('exits with status 4 where the computer cannot encrypt, storing nothing in the clear', async () => {
    const { status, said } = await run(dir, Readable.from([KEY]), 'unavailable');
    expect(status).toBe(KEY_IMPORT_EXIT.noEncryption);
    expect(said).toMatch(/no encryption for secrets/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('says plainly when the key is stored without the OS store', async () => {
    const { status, said } = await run(dir, Readable.from([KEY]), 'basic_text');
    expect(status).toBe(KEY_IMPORT_EXIT.stored);
    expect(said).toMatch(/NOT protected by the operating system/);
  });

  it('exits with status 5 when standard input is a terminal, before reading a character', async () => {
    const terminal = Object.assign(Readable.from([KEY]), { isTTY: true });
    const { status, said } = await run(dir, terminal);
    expect(status).toBe(KEY_IMPORT_EXIT.terminal);
    expect(said).toMatch(/Standard input is a terminal/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('runs end to end as a command: the browser shell with the flag, the key piped in', async () => {
    const command = (input: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', BROWSER_SHELL, '--import-api-key', '--user-data-dir', dir],
          {
            cwd: ROOT,
            stdio: ['pipe', 'pipe', 'pipe'],
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input);
      });

    const stored = await command(`${KEY}\n`);
    expect(stored).toEqual({
      code: 0,
      stdout: '',
      stderr: expect.stringMatching(/^Loyalty Till: The API key was stored for this user account, but NOT protected/),
    });
    expect(stored.stderr).not.toContain(KEY);
    // The key file cipher of the browser shell opens it again; the folder is private.
    const vault = await openVault({
      file: join(dir, 'api-key.bin'),
      cipher: createKeyFileCipher(join(dir, 'api-key.key')),
      log: createCapturedLog(),
    });
    expect(vault.key()).toBe(KEY);
    if (process.platform !== 'win32') expect((await stat(dir)).mode & 0o077).toBe(0);
    // "See the log": the log says how the key is kept, and nothing of the key.
    const logged = await readFile(join(dir, 'logs', 'main.log'), 'utf8');
    expect(logged).toMatch(/\[warn\] The API key is encrypted with a key file beside it/);
    expect(logged).not.toContain(KEY);
    expect(logged).not.toContain(KEY.slice(-4));
    if (process.platform !== 'win32') expect((await stat(join(dir, 'logs', 'main.log'))).mode & 0o777).toBe(0o600);

    expect((await command('')).code).toBe(KEY_IMPORT_EXIT.empty);
    expect((await command('two words')).code).toBe(KEY_IMPORT_EXIT.refused);
  }, 60_000);
});
