import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { setApiKeyPayload } from '../validation/bridge-payloads';
import { fieldErrors } from '../validation/validation-errors';
import { ENGLISH, describe } from '../messages';
import { createRedactingLogger, describeError, type Logger } from '../log/log';
import type { KeyCipher } from './key-cipher';
import { API_KEY_FILE, openVault } from './vault';

/** The command-line flag: `Loyalty Till --import-api-key < key` (docs/operations.md#the-api-key). */
export const IMPORT_API_KEY_FLAG = '--import-api-key';

/** The exit statuses of `--import-api-key`, as deployment scripts test them. */
export const KEY_IMPORT_EXIT = Object.freeze({
  stored: 0,
  /** Storing failed on this computer (encryption failed, the folder could not be written). */
  failed: 1,
  /** Nothing came on standard input. */
  empty: 2,
  /** What came is not an API key (spaces, control characters, too short or long). */
  refused: 3,
  /** The computer offers no encryption for secrets: the key is not stored in the clear. */
  noEncryption: 4,
  /** Standard input is a terminal: typing the key would show it. */
  terminal: 5,
});

/** An API key is at most 512 characters; more than this on standard input is not one. */
export const MAX_KEY_INPUT_BYTES = 4096;

export interface KeyImportOptions {
  /** Standard input: the key, and nothing else but surrounding whitespace. */
  input: Readable & { isTTY?: boolean };
  /** Where the one line of outcome goes (standard error: standard output stays empty). */
  output: Writable;
  userDataDir: string;
  cipher: KeyCipher;
  log: Logger;
}

/**
 * Reads the API key from standard input and stores it encrypted, as Settings does (the same
 * vault, the same file, the same checks), for a deployment script run as the till's user
 * account. Nothing of the key is printed or logged; the one line said is the outcome. The key
 * never touches a file of its own: it comes through a pipe and leaves sealed.
 */
export async function importApiKey(options: KeyImportOptions): Promise<number> {
  const { input, output } = options;
  const say = (line: string) => output.write(`Loyalty Till: ${line}\n`);

  if (input.isTTY) {
    say(describe(ENGLISH, 'keyImport.terminal'));
    return KEY_IMPORT_EXIT.terminal;
  }
  const read = await readAtMost(input, MAX_KEY_INPUT_BYTES);
  if (read === null) {
    say(describe(ENGLISH, 'keyImport.tooLong', { max: MAX_KEY_INPUT_BYTES }));
    return KEY_IMPORT_EXIT.refused;
  }
  const text = read.toString('utf8');
  read.fill(0);
  if (text.trim() === '') {
    say(describe(ENGLISH, 'keyImport.empty'));
    return KEY_IMPORT_EXIT.empty;
  }
  const parsed = setApiKeyPayload.safeParse({ apiKey: text });
  if (!parsed.success) {
    const why = Object.values(fieldErrors(parsed.error, ENGLISH)).join(' ');
    say(describe(ENGLISH, 'keyImport.refused', { why }));
    return KEY_IMPORT_EXIT.refused;
  }

  // Whatever the vault or an error says, the key being imported is never written out.
  const apiKey = parsed.data.apiKey;
  const log = createRedactingLogger(options.log, () => [apiKey]);
  try {
    const vault = await openVault({ file: join(options.userDataDir, API_KEY_FILE), cipher: options.cipher, log });
    const outcome = await vault.store(parsed.data.apiKey);
    if (!outcome.ok) {
      say(outcome.message);
      return outcome.why === 'apiKey.noEncryption' ? KEY_IMPORT_EXIT.noEncryption : KEY_IMPORT_EXIT.failed;
    }
    // As the vault learnt it while storing: the cipher is not asked twice.
    const protection = vault.status().protection;
    say(protection === 'os' ? describe(ENGLISH, 'keyImport.stored') : describe(ENGLISH, 'keyImport.storedWeakly'));
    return KEY_IMPORT_EXIT.stored;
  } catch (error) {
    log.error(`Importing the API key failed: ${describeError(error)}`);
    say(describe(ENGLISH, 'keyImport.failed', { reason: describeError(error) }));
    return KEY_IMPORT_EXIT.failed;
  }
}

/** The whole stream, or null as soon as it passes `max` bytes (the rest is not kept). */
async function readAtMost(input: Readable, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > max) {
      for (const kept of chunks) kept.fill(0);
      input.destroy();
      return null;
    }
    chunks.push(bytes);
  }
  const all = Buffer.concat(chunks);
  for (const kept of chunks) kept.fill(0);
  return all;
}
