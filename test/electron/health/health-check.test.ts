/**
 * `--health` when the work copy is sealed line by line (electron/health/health-check.ts): the
 * shell hands the check a way to open the copy's codec, which needs the data key; the key is
 * read beside the till, never made or moved (storage/data-key.ts's `readDataKey`). A key that
 * will not open, or a key store that does not answer, makes the outbox "could not tell"
 * (exit 2) within the check's deadline, with the rest of the report still said.
 *
 * The codec is the till's own (work-copy/till-work-copy.ts `workCopyCodec`, and `readingCodec`
 * for the reader beside it).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { checkHealth } from '../../../electron/health/health-check';
import { openDataKey } from '../../../electron/storage/data-key';
import { createKeyFileCipher } from '../../../electron/storage/key-file-cipher';
import type { LineCodec } from '../../../electron/work-copy/line-codec';
import { readingCodec, workCopyCodec } from '../../../electron/work-copy/till-work-copy';
import { openWorkCopy, WORK_COPY_FILE } from '../../../electron/work-copy/work-copy';
import { createCapturedLog } from '../../support/captured-log';
import { keptItem } from '../../support/till-folder';

const ABOUT = { version: '9.9.9', shell: 'browser' as const };
const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A browser shell's folder: its key file, its data key, and a work copy sealed under that key. */
async function sealedTill(): Promise<{ folder: string; keyFile: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'till-health-sealed-'));
  dirs.push(folder);
  const keyFile = join(folder, 'api-key.key');
  const dataKey = await openDataKey({ folder, cipher: createKeyFileCipher(keyFile), log: createCapturedLog() });
  const copy = await openWorkCopy({
    file: join(folder, WORK_COPY_FILE),
    log: createCapturedLog(),
    codec: workCopyCodec(dataKey),
  });
  await copy.keep([
    { op: 'item', item: keptItem('pending', 30) },
    { op: 'item', item: keptItem('conflict', 2) },
  ]);
  await copy.close();
  return { folder, keyFile };
}

test('a sealed copy is read through the codec the shell opens with the data key', async () => {
  const { folder, keyFile } = await sealedTill();
  const files = await readdir(folder);
  const report = await checkHealth({
    folder,
    about: ABOUT,
    openCodec: () => readingCodec(folder, createKeyFileCipher(keyFile)),
  });
  expect(report.outbox).toMatchObject({ waiting: 1, failed: 0, conflicts: 1, unreadableLines: 0 });
  expect(report.outbox?.oldestAgeHours).toBeGreaterThanOrEqual(30);
  // (This folder holds a work copy and a key but no settings: a till not set up, said first.)
  expect(report.reasons.map((reason) => reason.code)).toEqual([
    'not_set_up',
    'waiting_too_long',
    'conflict_unacknowledged',
  ]);
  expect(report.exitCode).toBe(1);
  expect(await readdir(folder)).toEqual(files);
});

test('read as plain lines, the sealed copy is all unreadable: the codec is what reads it', async () => {
  const { folder } = await sealedTill();
  const report = await checkHealth({ folder, about: ABOUT });
  expect(report.outbox).toMatchObject({ waiting: 0, conflicts: 0 });
  // The header and both items: counted, never guessed at.
  expect(report.outbox?.unreadableLines).toBe(3);
});

test('a data key that will not open: the outbox could not be told (exit 2), the rest still said', async () => {
  const { folder } = await sealedTill();
  const report = await checkHealth({
    folder,
    about: ABOUT,
    openCodec: () => readingCodec(folder, createKeyFileCipher(join(folder, 'another.key'))),
  });
  expect(report.exitCode).toBe(2);
  expect(report.status).toBe('unknown');
  expect(report.outbox).toBeNull();
  expect(report.reasons[0]).toMatchObject({ code: 'outbox_unreadable' });
  expect(report.reasons[0]?.detail).toMatch(/its key could not be opened: .*another\.key is missing/);
  expect(report.till.version).toBe('9.9.9');
});

test('a key store that does not answer: the check still answers, within its deadline', async () => {
  const { folder } = await sealedTill();
  const started = performance.now();
  const report = await checkHealth({
    folder,
    about: ABOUT,
    deadlineMs: 200,
    openCodec: () => new Promise<LineCodec>(() => undefined),
  });
  expect(performance.now() - started).toBeLessThan(1500);
  expect(report.exitCode).toBe(2);
  expect(report.reasons[0]?.detail).toMatch(/no answer within 200 ms/);
});
