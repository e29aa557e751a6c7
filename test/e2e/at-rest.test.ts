/**
 * A stolen till gives away nothing of its customers (issue 50): the browser shell started as
 * `npm start` starts it, a Chromium with its profile on disk, a loyalty service outside the
 * shell (not the demo, whose own data file is plain by nature). After a fill of the cache, an
 * offline redemption and the shift report (F7), the browser is closed and every file under the
 * profile's `IndexedDB/` is read as a thief with a copy of the disk would read them: none of the
 * customers' names, phones in any spelling, emails, birthdays, card serials or reward codes is
 * there, in UTF-8 or in UTF-16 (how V8 writes a string that is not Latin-1).
 *
 * Then the same of the main process's user-data folder, whole: its copy of the outbox and the
 * journal (`work-copy.jsonl`, which holds the queued redemption), the settings, the keys, the
 * shop's files and the log.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../common/contract';
import { startSandbox, type Sandbox } from '../../sandbox';
import { checkCode, openCustomer } from './cashier';
import { CHROMIUM_ARGS, CHROMIUM_PATH, requireChromium, VIEWPORT } from './harness';
import { builtRenderer } from './renderer-build';
import { addressOf, callOver, openSocket, runShell, socketUrlOf, stopShell, type Shell } from './shell-process';

const KEY = 'at-rest-key-5903';

interface ListedCustomer {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  birthday: string | null;
  cards: Array<{ serial_number: string | null }>;
}

/** Every file under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The phone `+966 50 123 4567` in every spelling a till or a person writes it. */
function phoneSpellings(phone: string): string[] {
  const digits = phone.replace(/\D+/g, '');
  const national = digits.slice(3);
  return [phone, `+${digits}`, digits, `0${national}`, national];
}

/** Which of `needles` the files hold, as UTF-8 or UTF-16 (little-endian) bytes, with where. */
function foundInFiles(files: readonly string[], needles: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const needle of needles) {
      if (bytes.includes(Buffer.from(needle, 'utf8')) || bytes.includes(Buffer.from(needle, 'utf16le')))
        found.add(`${needle} (${file})`);
    }
  }
  return [...found];
}

describe('the till’s IndexedDB files, read from the disk, hold nothing personal', () => {
  let work: string;
  let profile: string;
  let sandbox: Sandbox;
  let shell: Shell;
  let context: BrowserContext;
  let page: Page;
  let address: string;
  const customers: ListedCustomer[] = [];
  const rewardCodes: string[] = [];

  beforeAll(async () => {
    requireChromium();
    work = await mkdtemp(join(tmpdir(), 'till-at-rest-'));
    const rendererDir = await builtRenderer(join(work, 'renderer'));
    profile = join(work, 'chromium-profile');
    sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
    shell = runShell(join(work, 'user-data'), rendererDir);
    address = await addressOf(shell);
    const opened = await openSocket(socketUrlOf(address), new URL(address).origin);
    if (!('open' in opened)) throw new Error(`The till's own socket was refused (${opened.status}).`);
    const saved = (await callOver(opened.open, CHANNELS.updateSettings, {
      baseUrl: sandbox.url,
      defaultCountry: 'SA',
      tillName: 'Till 1',
      allowOfflineRedemption: true,
    })) as { result: { ok: boolean } };
    const keySaved = (await callOver(opened.open, CHANNELS.setApiKey, { apiKey: KEY })) as { result: { ok: boolean } };
    opened.open.close();
    if (!saved.result.ok || !keySaved.result.ok) throw new Error('The till could not be configured.');

    // What the service holds: every customer, as its list gives them.
    const headers = { authorization: `Bearer ${KEY}`, accept: 'application/json' };
    for (let pageNo = 1; ; pageNo++) {
      const listed = (await (
        await fetch(`${sandbox.url}/v1/customers?per_page=100&page=${pageNo}`, { headers })
      ).json()) as { data: ListedCustomer[]; meta: { last_page: number } };
      customers.push(...listed.data);
      if (pageNo >= listed.meta.last_page) break;
    }

    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
      locale: 'en-GB',
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
    await page.goto(address);
    await page.locator('main.screen > *').first().waitFor();
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    if (shell) await stopShell(shell);
    await sandbox?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('after a fill, an offline redemption and the shift report', async () => {
    // The fill: the whole customer base, in the background.
    await page.keyboard.press('F9');
    await expect
      .poll(() => page.getByTestId('cache-refresh').textContent(), { timeout: 60_000 })
      .toContain('Last complete refresh:');
    await page.keyboard.press('Escape');

    // A customer with a reward waiting, opened online (their rewards cached), then redeemed offline.
    const headers = { authorization: `Bearer ${KEY}`, accept: 'application/json' };
    let target: { customer: ListedCustomer; code: string } | null = null;
    for (const customer of customers) {
      const full = (await (await fetch(`${sandbox.url}/v1/customers/${customer.id}`, { headers })).json()) as {
        data: { rewards?: Array<{ code: string; status: string; type: string }> };
      };
      const rewards = full.data.rewards ?? [];
      const waiting = rewards.find((reward) => reward.status === 'available' && reward.type === 'product');
      if (waiting) {
        target = { customer, code: waiting.code };
        rewardCodes.push(...rewards.map((reward) => reward.code));
        break;
      }
    }
    if (!target) throw new Error('No customer has a reward waiting.');
    const phone = target.customer.phone.replace(/\s/g, '');
    await openCustomer(page, phone, target.customer.name);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
    await sandbox.close();
    await checkCode(page, target.code, phone);
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    await page.locator('#order-reference').fill('ORD-AT-REST-4471');
    await page.getByTestId('redeem-confirm').click();
    await expect.poll(() => page.getByTestId('queued').textContent()).toMatch(new RegExp(`^Queued: .+${target.code}`));

    // The shift report, which reads the journal and the outbox back.
    await page.keyboard.press('F7');
    await page.getByTestId('report-by-cashier').waitFor();
    await expect.poll(() => page.getByTestId('report-by-cashier').textContent()).toBeTruthy();

    // The browser closed, as a till shut down before its disk is taken.
    await context.close();
    const files = filesUnder(join(profile, 'Default', 'IndexedDB')).filter((file) => statSync(file).size > 0);
    const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
    // The files are there and readable: the records' readable field names are in them, in clear.
    expect(bytes).toBeGreaterThan(100_000);
    expect(foundInFiles(files, ['sealed', 'pendingOutboxSeq'])).not.toEqual([]);

    const needles = [
      ...customers.map((customer) => customer.name).filter((name) => name.length >= 6),
      ...customers.flatMap((customer) => phoneSpellings(customer.phone)),
      ...customers.flatMap((customer) => (customer.email ? [customer.email] : [])),
      ...customers.flatMap((customer) => (customer.birthday ? [customer.birthday] : [])),
      ...customers.flatMap((customer) => customer.cards.flatMap((card) => card.serial_number ?? [])),
      ...rewardCodes,
      'ORD-AT-REST-4471',
    ];
    expect(needles.length).toBeGreaterThan(1000);
    expect(foundInFiles(files, needles)).toEqual([]);

    // The main process's folder: its copy holds the queued redemption (sealed), and nothing there is readable.
    await stopShell(shell);
    const userData = join(work, 'user-data');
    const kept = filesUnder(userData).filter((file) => statSync(file).size > 0);
    expect(kept.map((file) => file.slice(userData.length + 1))).toContain('work-copy.jsonl');
    expect(statSync(join(userData, 'work-copy.jsonl')).size).toBeGreaterThan(500);
    expect(foundInFiles(kept, needles)).toEqual([]);
    expect(foundInFiles(kept, ['sealed1:'])).not.toEqual([]);
  });
});
