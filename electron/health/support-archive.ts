import { strToU8, zipSync, type Zippable } from 'fflate';

/**
 * The support file's archive (docs/operations.md, "A support file"): one .zip with one file
 * per part, so the help desk opens the part it asks about (the logs in a log viewer, the
 * health in a JSON viewer) instead of digging one document, and a README.txt that says what
 * each file is. The zip format comes from fflate, small and without dependencies, rather than
 * from code of our own; it is bundled into main.cjs like every library (build/build-main.ts).
 *
 * What goes in is already redacted (support-file.ts): this module only names and packs.
 */

/** The archive's JSON parts, each with what README.txt says of it (plain ASCII: read in any viewer). */
export const SUPPORT_PARTS = {
  'health.json': "The till's health, as `loyalty-till --health` prints it: the verdict and its reasons, and the facts.",
  'settings.json': 'The settings that configure the till (its cashiers counted, never named; no key, no PIN).',
  'policy.json': "The organisation's policy as applied: what it sets and locks, its updates and health thresholds.",
  'connections.json': 'The loyalty service online or offline now, and each change over the last 7 days.',
  'work.json': "The outbox's and the journal's counts by state and by age (never a record).",
  'shop-tills.json': 'The shop ledger: the other tills of the shop, their LAN addresses, when last heard.',
  'display.json': 'The customer display: screens attached, display windows open, whether one is chosen.',
  'versions.json': 'The versions of the app, Electron, Chromium (or the browser), Node and the system.',
} as const;

export type SupportPart = keyof typeof SUPPORT_PARTS;

/** Where the log files go: `logs/main.old.log`, `logs/main.log`. */
export const LOGS_FOLDER = 'logs';

export interface SupportArchiveContents {
  /** Every part, its value written as indented JSON. */
  parts: Record<SupportPart, unknown>;
  /** Each log file by its own name, its lines of the last 7 days. */
  logs: ReadonlyArray<{ name: string; lines: readonly string[] }>;
  madeAt: Date;
  formatVersion: number;
}

function readme({ madeAt, formatVersion, logs }: SupportArchiveContents): string {
  const width = Math.max(...Object.keys(SUPPORT_PARTS).map((name) => name.length), `${LOGS_FOLDER}/`.length) + 2;
  const row = (name: string, words: string) => `${name.padEnd(width)}${words}`;
  return [
    'Loyalty Till support file',
    `Made ${madeAt.toISOString()} (support file format ${formatVersion}).`,
    '',
    "Nothing personal and nothing secret is in it: every text went through the till's redaction,",
    'the same as its log, so names, phones, emails, birthdays, card serials, reward codes, order',
    'references and ids read as their kind ([personal], [phone]...) and keys as [redacted].',
    '',
    ...Object.entries(SUPPORT_PARTS).map(([name, words]) => row(name, words)),
    row(
      `${LOGS_FOLDER}/`,
      logs.length > 0
        ? `The log files' entries of the last 7 days: ${logs.map((log) => log.name).join(', ')} (oldest first).`
        : "The log files' entries of the last 7 days: none were found.",
    ),
    '',
  ].join('\r\n');
}

/** The archive's bytes. Synchronous: a week of logs is a few MiB, packed in a moment at a manager's click. */
export function packSupportArchive(contents: SupportArchiveContents): Uint8Array {
  // DOS times in a zip carry no zone: the moment it was made, as the machine's clock reads it.
  const entry = (text: string): Zippable[string] => [strToU8(text), { mtime: contents.madeAt }];
  const files: Zippable = { 'README.txt': entry(readme(contents)) };
  for (const [name, value] of Object.entries(contents.parts))
    files[name] = entry(`${JSON.stringify(value, null, 2)}\n`);
  // Flat paths: a nested object would add a `logs/` entry of its own, a folder with nothing to say.
  for (const log of contents.logs)
    files[`${LOGS_FOLDER}/${log.name}`] = entry(log.lines.map((line) => `${line}\n`).join(''));
  return zipSync(files, { level: 6 });
}
