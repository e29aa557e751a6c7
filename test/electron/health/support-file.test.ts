/**
 * The support file (electron/health/support-file.ts): a till whose every store holds personal
 * values (the customers its page cached, through the main process's answers; its outbox and
 * journal; its log, written by this version and in clear by an earlier one; its settings) and
 * its keys, saves one; it is one .zip, and none of those values is in any of its files, in any
 * spelling, nor either key, while what the help desk needs is. It leaves as every export does:
 * with the manager's approval, through the shell's way out. The archive is opened here with the
 * library that packs it (fflate), as any unzip tool would read it.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  CHANNELS,
  type Customer,
  type KeptItem,
  type KeptJournalEntry,
  type Operation,
} from '../../../common/contract';
import { createAppCore, type AppCore } from '../../../electron/bridge/app-core';
import type { FileToSave } from '../../../electron/bridge/exports';
import { logFilesIn } from '../../../electron/health/health-wiring';
import { createAppendLogger, teeLogger } from '../../../electron/log/file-log';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../../sandbox';
import { APP_SENDER, TEST_ORIGIN } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';
import { createTestCipher } from '../../support/test-cipher';

const KEY = 'sk_live_Q7w3ZtY9mK2pL8xV';
const { layla } = DEMO_FIXTURES;
const DAY_MS = 24 * 3_600_000;

/** Every kind of personal value the till handles, each in the spellings it turns up in. */
const YOUSEF = {
  name: 'Yousef Al-Harbi',
  phone: '+966559876543',
  email: 'yousef.harbi@example.com',
  birthday: '1988-03-09',
};
const NOURA = { name: 'نورة القحطاني', phone: '+966532221100', email: 'noura.q@example.sa', birthday: '1995-12-01' };
const PHONE_SPELLINGS = (e164: string): string[] => {
  const national = e164.slice(4); // 501234567
  return [
    e164,
    e164.slice(1),
    `00${e164.slice(1)}`,
    `0${national}`,
    national,
    `+966 ${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}`,
    `0${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}`,
    `0${national.slice(0, 2)}-${national.slice(2, 5)}-${national.slice(5)}`,
    [...`0${national}`].map((digit) => String.fromCharCode(0x0660 + Number(digit))).join(''),
  ];
};

let work: string;
let folder: string;
let logs: string;
let sandbox: Sandbox;
let core: AppCore;
const saved: FileToSave[] = [];
const values: Record<string, string[]> = {};

const call = (operation: Operation, payload?: unknown) =>
  core.handlers[CHANNELS[operation]](APP_SENDER, payload) as Promise<{ ok: boolean; data?: any; error?: any }>;

async function ok(operation: Operation, payload?: unknown): Promise<any> {
  const answer = await call(operation, payload);
  if (!answer.ok) throw new Error(`${operation}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'till-support-'));
  folder = join(work, 'user-data');
  logs = join(work, 'logs');
  sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });

  // An earlier version's log, written in clear: a week's lines and one older.
  const old = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().replace('T', ' ').slice(0, 23);
  await mkdir(logs, { recursive: true });
  await writeFile(
    join(logs, 'main.old.log'),
    [
      `[${old(9)}] [info] TOO-OLD-TO-SEND: a line from nine days ago`,
      `[${old(3)}] [error] Renderer error in customers: ${layla.name} (${layla.phoneShown}) could not be opened`,
      `[${old(3)}] [warn] POST /v1/customers -> 422: ${YOUSEF.name} ${YOUSEF.email} born ${YOUSEF.birthday}`,
      `[${old(2)}] [info] Link to reward received: code=${layla.rewards.availableProduct} order=POS-118842 phone=0501234567`,
      `[${old(2)}] [info] Using key ${KEY}`,
      `    at showCustomer (customers.ts:12) ${NOURA.name} ${NOURA.phone}`,
      '',
    ].join('\n'),
  );

  core = await createAppCore({
    userDataDir: folder,
    cipher: createTestCipher(),
    appOrigin: TEST_ORIGIN,
    // The till's own log file, as the shells write it (the browser shell's, here).
    log: teeLogger(createCapturedLog(), createAppendLogger(join(logs, 'main.log'))),
    about: { version: '1.4.2', shell: 'browser', logFiles: logFilesIn(logs) },
    saveFile: async (file) => {
      saved.push(file);
      return { outcome: 'download', downloadPath: `__till/download/${saved.length}` };
    },
  });

  // Settings: the service, the key, the till's cashiers.
  await ok('updateSettings', {
    baseUrl: sandbox.url,
    tillName: 'Till 1',
    cashiers: [
      { name: 'Omar Farouk', number: 'POS-77' },
      { name: 'سلمان الدوسري', number: null },
    ],
  });
  await ok('setApiKey', { apiKey: KEY });

  // The cache: what the page caches comes through the main process's answers.
  const yousef = (await ok('registerCustomer', YOUSEF)).customer as Customer;
  const noura = (await ok('registerCustomer', NOURA)).customer as Customer;
  const laylaRecord = (await ok('getCustomer', { id: layla.id })) as Customer;
  await ok('searchCustomers', { phone: layla.phone });
  await ok('noteCache', { lastCompleteRefreshAt: new Date().toISOString(), customers: 3 });

  // The outbox and the journal, as the page keeps them and hands them over.
  const redemption: KeptItem = {
    uid: '11111111-1111-4111-8111-111111111111',
    kind: 'redeem',
    state: 'conflict',
    queuedAt: new Date(Date.now() - 3_600_000).toISOString(),
    code: layla.rewards.availableProduct,
    phoneE164: layla.phone,
    customerId: layla.id,
    customerName: layla.name,
    orderReference: 'Table 7 Khalid',
    cashier: 'Omar Farouk',
    rewardName: 'Free coffee',
  };
  const registration: KeptItem = {
    uid: '22222222-2222-4222-8222-222222222222',
    kind: 'register',
    state: 'pending',
    queuedAt: new Date().toISOString(),
    name: NOURA.name,
    phoneE164: NOURA.phone,
    email: NOURA.email,
    birthday: NOURA.birthday,
    cashier: 'سلمان الدوسري',
  };
  const journal: KeptJournalEntry = {
    uid: '33333333-3333-4333-8333-333333333333',
    outboxUid: null,
    kind: 'redeem',
    outcome: 'redeemed',
    doneAt: new Date().toISOString(),
    code: 'RW-YOUSEF22',
    customerId: yousef.id,
    customerName: YOUSEF.name,
    phoneE164: YOUSEF.phone,
    orderReference: 'POS-118842',
    cashier: 'Omar Farouk',
  };
  await ok('keepWork', {
    changes: [
      { op: 'item', item: redemption },
      { op: 'item', item: registration },
      { op: 'journal', entry: journal },
    ],
  });

  // The page's errors, through this version's log.
  await ok('logError', {
    message: `Could not show ${layla.name} (${layla.phoneShown}), card ${laylaRecord.cards[0]!.serial_number}`,
    source: 'customers',
    stack: `Error\n    at render (CustomerView.vue:40) "${YOUSEF.name}" ${YOUSEF.email}`,
  });
  await ok('logError', { message: `Unexpected token 'ن', "${NOURA.name}"... is not valid JSON` });

  const dataKey = (await ok('dataKey')) as { key: string };
  const raw = Buffer.from(dataKey.key, 'base64');
  Object.assign(values, {
    names: [layla.name, YOUSEF.name, NOURA.name, 'Omar Farouk', 'سلمان الدوسري', 'Layla', 'Haddad', 'Yousef'],
    phones: [layla.phone, YOUSEF.phone, NOURA.phone].flatMap(PHONE_SPELLINGS),
    emails: [YOUSEF.email, NOURA.email, 'layla.haddad@example.com'],
    birthdays: [YOUSEF.birthday, NOURA.birthday, '09/03/1988'],
    serials: [...laylaRecord.cards, ...yousef.cards, ...noura.cards].map((card) => card.serial_number),
    codes: [layla.rewards.availableProduct, layla.rewards.availableProduct.toLowerCase(), 'RW-YOUSEF22'],
    orders: ['POS-118842', 'Table 7 Khalid', 'POS-77'],
    keys: [KEY, dataKey.key, raw.toString('base64url'), raw.toString('hex')],
    ids: [layla.id, yousef.id, noura.id, ...laylaRecord.cards.map((card) => card.id)],
  });
  expect(values.serials!.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await core?.dispose();
  await sandbox?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** What the help desk opens: the archive's files, by name, as text. */
type Entries = Record<string, string>;
const json = (entries: Entries, name: string): any => JSON.parse(entries[name]!);
const lines = (entries: Entries, name: string): string[] => entries[name]!.split('\n').filter((line) => line !== '');

describe('the support file', () => {
  let entries: Entries;

  test('is saved through the shell’s way out, guarded as every export is', async () => {
    // With a manager PIN set, it is refused until the PIN is given.
    await ok('setManagerPin', { pin: '482916' });
    await ok('endManagerApproval');
    const refused = await call('saveSupportFile', { userAgent: 'Mozilla/5.0 Chrome/140.0.0.0' });
    expect(refused.ok === false && refused.error.code).toBe('manager_pin_required');
    expect(saved).toHaveLength(0);
    await ok('verifyManagerPin', { pin: '482916' });
    const outcome = await ok('saveSupportFile', { userAgent: 'Mozilla/5.0 Chrome/140.0.0.0' });
    expect(outcome).toEqual({
      outcome: 'download',
      downloadPath: '__till/download/1',
      fileName: expect.stringMatching(/^loyalty-till-support-LT-[0-9A-Z]{4}-[0-9A-Z]{4}-\d{4}-\d{2}-\d{2}\.zip$/),
    });
    expect(saved[0]).toMatchObject({ fileName: outcome.fileName, contentType: 'application/zip' });
  });

  test('is one archive, a file for each part and each log file, and a README saying what each is', () => {
    const bytes = saved[0]!.bytes;
    // A zip's local file header, not a text.
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    entries = Object.fromEntries(
      Object.entries(unzipSync(new Uint8Array(bytes))).map(([name, data]) => [name, strFromU8(data)]),
    );
    const parts = [
      'health.json',
      'settings.json',
      'policy.json',
      'connections.json',
      'work.json',
      'shop-tills.json',
      'display.json',
      'versions.json',
    ];
    expect(Object.keys(entries).sort()).toEqual(['README.txt', ...parts, 'logs/main.old.log', 'logs/main.log'].sort());
    for (const part of parts) {
      expect(() => json(entries, part), part).not.toThrow();
      expect(entries['README.txt'], part).toMatch(new RegExp(`^${part.replace('.', '\\.')} +\\S`, 'm'));
    }
    expect(entries['README.txt']).toMatch(
      /^logs\/ +The log files' entries of the last 7 days: main\.old\.log, main\.log/m,
    );
  });

  test('holds none of the personal values, in any spelling, nor either key, in any of its files', () => {
    expect(Object.keys(entries).length).toBeGreaterThan(0);
    for (const [name, text] of Object.entries(entries)) {
      const folded = `${name}\n${text}`.toLowerCase();
      for (const [kind, planted] of Object.entries(values)) {
        for (const value of planted) expect(folded, `${name}: ${kind}: ${value}`).not.toContain(value.toLowerCase());
      }
    }
  });

  test('holds what the help desk asks for', () => {
    expect(json(entries, 'health.json')).toMatchObject({
      status: 'attention',
      till: { name: 'Till 1', version: '1.4.2', shell: 'browser' },
      service: { mode: 'service', baseUrl: sandbox.url, keySet: true },
      connection: { state: 'online' },
      outbox: { waiting: 1, failed: 0, conflicts: 1 },
      cache: { customers: 3 },
    });
    expect(json(entries, 'versions.json')).toMatchObject({
      supportFile: 2,
      app: '1.4.2',
      node: process.versions.node,
      browser: expect.any(String),
    });
    expect(json(entries, 'settings.json')).toMatchObject({ baseUrl: sandbox.url, tillName: 'Till 1', cashiers: 2 });
    expect(json(entries, 'policy.json')).toEqual({ state: 'none', locked: [] });
    expect(json(entries, 'work.json')).toMatchObject({
      outbox: { total: 2, byState: { redeem_conflict: 1, register_pending: 1 } },
      journal: { total: 1, byState: { redeemed: 1 } },
    });
    expect(json(entries, 'connections.json')).toMatchObject({
      now: { state: 'online' },
      history: [{ at: expect.any(String), state: 'online' }],
    });
    expect(json(entries, 'shop-tills.json')).toMatchObject({ enabled: false, peers: [] });
    expect(json(entries, 'display.json')).toEqual({ screens: 0, windows: 0, chosen: false });
  });

  test('holds the last 7 days of the logs, this version’s and an earlier one’s, redacted alike', () => {
    const earlier = lines(entries, 'logs/main.old.log');
    expect(entries['logs/main.old.log']).not.toContain('TOO-OLD-TO-SEND');
    // The earlier version's lines are there, cleaned of what they carried.
    expect(earlier).toContainEqual(
      expect.stringMatching(/Renderer error in customers: \[personal\] \(\[phone\]\) could not be opened$/),
    );
    expect(earlier).toContainEqual(expect.stringMatching(/Using key \[redacted\]$/));
    expect(earlier).toContainEqual(
      expect.stringMatching(/^ {4}at showCustomer \(customers\.ts:12\) \[personal\] \[phone\]$/),
    );
    expect(earlier).toContainEqual(
      expect.stringMatching(/Link to reward received: code=\[reward code\] order=\[number\] phone=\[phone\]$/),
    );
    // This version's lines, cleaned as they were written: the page's errors, the service's calls.
    const current = lines(entries, 'logs/main.log');
    expect(current).toContainEqual(
      expect.stringMatching(/Renderer error in customers: Could not show \[personal\] \(\[phone\]\), card \[number\]$/),
    );
    expect(current).toContainEqual(expect.stringMatching(/GET \/v1\/customers\/\[id\] -> 200/));
  });

  test('the log itself was written without them: the same redaction, at the time of writing', async () => {
    const written = (await readFile(join(logs, 'main.log'), 'utf8')).toLowerCase();
    expect(written).toContain('renderer error');
    for (const [kind, planted] of Object.entries(values)) {
      for (const value of planted) expect(written, `${kind}: ${value}`).not.toContain(value.toLowerCase());
    }
    // And it says the archive left, by its own name.
    expect(written).toMatch(
      /a support file \(loyalty-till-support-lt-[0-9a-z]{4}-[0-9a-z]{4}-[\d-]{10}\.zip\) left the till/,
    );
  });
});
