import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedactingLogger, describeError } from '../log/log';
import { createAppendLogger } from '../log/file-log';
import { createKeyFileCipher } from '../storage/key-file-cipher';
import { importApiKey } from '../storage/key-import';
import { machinePolicySource } from '../policy/machine-policy';
import { fail } from './fail';
import { defaultUserDataDir, KEY_FILE, LOG_FOLDER, readShellOptions } from './shell-options';

// The browser shell's entry point (`npm start` where Electron cannot run, or with --browser):
// the same app core as the Electron shell, in plain Node, its page served on 127.0.0.1 to the
// machine's own browser. Run from source: `node --import tsx electron/browser-shell/main.ts`.
// With `--health` it prints the till's health and exits (docs/operations.md); with
// `--import-api-key` it stores the key; otherwise it serves the till (serve-till.ts).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the key import's notes go (docs/operations.md#the-api-key), and the till's log. */
const LOG_FILE = join(LOG_FOLDER, 'main.log');

async function main(): Promise<void> {
  const options = readShellOptions(process.argv.slice(2), {
    rendererDir: join(ROOT, 'dist', 'renderer'),
    userDataDir: defaultUserDataDir(),
  });
  if ('error' in options) fail(options.error);
  if (options.importApiKey) {
    mkdirSync(options.userDataDir, { recursive: true, mode: 0o700 });
    process.exit(
      await importApiKey({
        input: process.stdin,
        output: process.stderr,
        userDataDir: options.userDataDir,
        cipher: createKeyFileCipher(join(options.userDataDir, KEY_FILE)),
        // The outcome line is all a script sees; the vault's own notes (how the key is kept)
        // go to the log the outcome points to, where the Electron shell keeps its own.
        log: createRedactingLogger(createAppendLogger(join(options.userDataDir, LOG_FILE)), () => []),
      }),
    );
  }
  if (options.health) {
    // Loaded alone: the check reads a few files and answers within 2 seconds, the app's
    // server and bundler are not loaded for it.
    const { runHealthCommand } = await import('../health/health-check');
    process.exit(
      await runHealthCommand({
        folder: options.userDataDir,
        about: { version: appVersion(), shell: 'browser' },
        policySource: machinePolicySource(options.policyFile ? { file: options.policyFile } : {}),
        // Its copy of the outbox is sealed under the data key, which the key file opens.
        openCodec: async () => {
          const { readingCodec } = await import('../work-copy/till-work-copy');
          return readingCodec(options.userDataDir, createKeyFileCipher(join(options.userDataDir, KEY_FILE)));
        },
      }),
    );
  }
  const { serveTill } = await import('./serve-till');
  await serveTill(options, { version: appVersion() });
}

/** The app's version, as its package.json says (the browser shell runs from the source). */
function appVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

main().catch((error: unknown) => fail(`could not start: ${describeError(error)}`));
