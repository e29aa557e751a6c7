import { join } from 'node:path';
import type { Settings } from '../../common/contract';
import { detailsCutoff } from '../../common/journal-retention';
import { describeError, type Logger } from '../log/log';
import type { Wording } from '../messages';
import { readDataKey, type DataKey } from '../storage/data-key';
import type { KeyCipher } from '../storage/key-cipher';
import { tillForgetting, type TillForgetting } from './forgetting';
import { jsonLines, type LineCodec } from './line-codec';
import { sealedLines } from './sealed-lines';
import { openWorkCopy, WORK_COPY_FILE, type WorkCopyStore } from './work-copy';
import { workCopyOperations } from './work-copy-operations';

/** The work copy's subkey of the data key (data-key.ts `subkey`). */
const PURPOSE = 'work copy v1';

/**
 * The codec `work-copy.jsonl` is written with: each line sealed under the data key's subkey for
 * it. Another process that reads the file (the health check, `readWorkCopyFile`) opens it with
 * this, given the data key.
 */
export function workCopyCodec(dataKey: Pick<DataKey, 'subkey'>): LineCodec {
  return sealedLines({ key: () => dataKey.subkey(PURPOSE), fileName: WORK_COPY_FILE });
}
/**
 * The codec for a reader beside the till (the health check, `readWorkCopyFile`): the data key
 * read, nothing written or made; plain lines where the till has no data key (a copy written
 * before the seal). Rejects when the key is there and will not open.
 */
export async function readingCodec(folder: string, cipher: Pick<KeyCipher, 'decrypt'>): Promise<LineCodec> {
  const dataKey = await readDataKey(folder, cipher);
  return dataKey ? workCopyCodec(dataKey) : jsonLines;
}

/** The journal's details are looked at this often, besides at start. */
const RETENTION_EVERY_MS = 24 * 60 * 60 * 1000;

export interface TillWorkCopyOptions {
  /** The user-data folder. */
  folder: string;
  dataKey: Pick<DataKey, 'subkey'>;
  log: Logger;
  /** The setting `journalPersonalDays` as it stands now. */
  personalDays: () => number;
  now?: () => Date;
  /** How often the journal's details are looked at (a day; tests shorten it). */
  retentionEveryMs?: number;
}

/**
 * The till's work copy as the app opens it: in `work-copy.jsonl` of the user-data folder, each
 * line sealed under the data key's subkey for it (sealed-lines.ts), and its journal's details
 * removed after `journalPersonalDays`, at start and once a day, whatever the page does (the page
 * strips its own copy by the same rule, common/journal-retention.ts). `stop` ends the days' timer.
 */
export async function openTillWorkCopy(
  options: TillWorkCopyOptions,
): Promise<{ copy: WorkCopyStore; retention: () => Promise<number>; stop: () => void }> {
  const { dataKey, log } = options;
  const now = options.now ?? (() => new Date());
  const copy = await openWorkCopy({
    file: join(options.folder, WORK_COPY_FILE),
    log,
    now,
    codec: workCopyCodec(dataKey),
  });
  const retention = async (): Promise<number> => {
    const at = now();
    const afterDays = options.personalDays();
    try {
      return await copy.removeDetails(detailsCutoff(at, afterDays), { at: at.toISOString(), afterDays });
    } catch (error) {
      log.error(`The journal's old details could not be removed from the work copy: ${describeError(error)}`);
      return 0;
    }
  };
  await retention();
  const timer = setInterval(() => void retention(), options.retentionEveryMs ?? RETENTION_EVERY_MS);
  timer.unref?.();
  return { copy, retention, stop: () => clearInterval(timer) };
}

/**
 * What the composition root takes of the work copy: the copy sealed and kept to its days, its
 * bridge operations (`keepWork`, `workCopy`, `noteStorage`), and forgetting the till's data.
 */
export async function openTillWork(
  options: Omit<TillWorkCopyOptions, 'personalDays'> & {
    dataKey: Pick<DataKey, 'subkey' | 'forget'>;
    settings: { get(): Pick<Settings, 'journalPersonalDays'> };
    wording: () => Wording;
  },
) {
  const { copy, stop } = await openTillWorkCopy({
    ...options,
    personalDays: () => options.settings.get().journalPersonalDays,
  });
  const kept = workCopyOperations({ copy, log: options.log, wording: options.wording });
  const forgetting: TillForgetting = tillForgetting({
    copy,
    dataKey: options.dataKey,
    log: options.log,
    wording: options.wording,
  });
  const close = async (): Promise<void> => {
    stop();
    await copy.close();
  };
  return { copy, operations: kept.operations, storage: kept.storage, forgetting, close };
}
