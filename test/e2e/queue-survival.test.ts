/**
 * A queued redemption survives anything short of the disk itself, tried as a shop would try
 * it: the browser shell started as `npm start` starts it (a child process, its folder kept),
 * a Chromium with a profile on disk (as a person's browser keeps one), a loyalty service
 * that goes away and comes back. After each blow the Outbox still holds the item, and once
 * the service is back it is redeemed there exactly once (the service's own log is the judge).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../common/contract';
import { DEFAULT_DB_NAME } from '../../renderer/offline/db/schema';
import { startSandbox, type RedemptionRecord, type Sandbox } from '../../sandbox';
import { freePort } from '../support/free-port';
import { checkCode, openCustomer, openOutbox, outboxCount } from './cashier';
import { builtRenderer, CHROMIUM_ARGS, CHROMIUM_PATH, requireChromium, screenshotOf, VIEWPORT } from './harness';
import { addressOf, callOver, openSocket, runShell, socketUrlOf, stopShell, type Shell } from './shell-process';

const KEY = 'queue-survival-key-2718';

interface Target {
  code: string;
  phone: string;
  name: string;
}

describe('a queued redemption survives anything short of the disk itself', () => {
  let work: string;
  let rendererDir: string;
  let userData: string;
  let profile: string;
  let sandbox: Sandbox;
  let sandboxPort = 0;
  let serviceUp = false;
  const pastRedemptions: RedemptionRecord[] = [];
  let shell: Shell;
  let address: string;
  let context: BrowserContext;
  let page: Page;
  const targets: Target[] = [];

  // ---- the service, the shell, the browser ---------------------------------------------

  async function startService(): Promise<void> {
    sandbox = await startSandbox({
      port: sandboxPort,
      keys: { [KEY]: 'coffee-club' },
      dataFile: join(work, 'svc.json'),
    });
    sandboxPort = Number(new URL(sandbox.url).port);
    serviceUp = true;
  }
  async function stopService(): Promise<void> {
    if (!serviceUp) return;
    serviceUp = false;
    pastRedemptions.push(...sandbox.redemptions());
    await sandbox.close();
  }
  /** Every redemption of the code the service made, across its restarts. */
  const madeOf = (code: string) =>
    [...pastRedemptions, ...(serviceUp ? sandbox.redemptions() : [])].filter((made) => made.code === code);

  async function startShell(more: readonly string[] = []): Promise<void> {
    shell = runShell(userData, rendererDir, more);
    address = await addressOf(shell);
  }
  const portOf = (at: string) => Number(new URL(at).port);

  async function openBrowser(): Promise<void> {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
      locale: 'en-GB',
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
  }

  async function openTill(): Promise<void> {
    await page.goto(address);
    await page.locator('main.screen > *').first().waitFor();
  }

  /** The whole browser, every process of its group, killed at once: as a power cut takes it. */
  async function killBrowser(): Promise<void> {
    const pid = browserPid(profile);
    process.kill(-pid, 'SIGKILL');
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
  }

  // ---- what a cashier does -------------------------------------------------------------

  /** Online: the customer opened once, so their rewards are in the cache. */
  async function cacheRewardsOf(target: Target): Promise<void> {
    if (!serviceUp) await startService();
    await openCustomer(page, target.phone, target.name);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
  }

  /** The service down, the reward checked against the cache and redeemed: "Queued". */
  async function queueOffline(target: Target, orderReference: string): Promise<void> {
    await checkCode(page, target.code, target.phone);
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    await page.locator('#order-reference').fill(orderReference);
    await page.getByTestId('redeem-confirm').click();
    await expect
      .poll(() => page.getByTestId('queued').textContent())
      .toMatch(new RegExp(`^Queued: .+${target.code} for `));
  }

  /** The Outbox's waiting count, once it says `count` (it is read again after every change). */
  async function expectWaiting(count: number): Promise<void> {
    await openOutbox(page);
    await expect.poll(() => outboxCount(page, 'pending')).toBe(count);
  }

  /** The service back: "Retry now" until the item has left the queue; what the service then holds. */
  async function sendAndCount(target: Target): Promise<number> {
    if (!serviceUp) await startService();
    await openOutbox(page);
    await expect
      .poll(
        async () => {
          if (await page.getByTestId('retry-now').isEnabled()) await page.getByTestId('retry-now').click();
          return outboxCount(page, 'pending');
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(0);
    await expect.poll(() => page.locator(`[data-testid="outbox-done"] [data-code="${target.code}"]`).count()).toBe(1);
    return madeOf(target.code).length;
  }

  beforeAll(async () => {
    requireChromium();
    work = await mkdtemp(join(tmpdir(), 'till-queue-survival-'));
    rendererDir = await builtRenderer(join(work, 'renderer'));
    userData = join(work, 'user-data');
    profile = join(work, 'chromium-profile');
    await startService();
    await startShell();
    const opened = await openSocket(socketUrlOf(address), new URL(address).origin);
    if (!('open' in opened)) throw new Error(`The till's own socket was refused (${opened.status}).`);
    const settingsSaved = (await callOver(opened.open, CHANNELS.updateSettings, {
      baseUrl: sandbox.url,
      defaultCountry: 'SA',
      tillName: 'Till 1',
      allowOfflineRedemption: true,
    })) as { result: { ok: boolean } };
    const keySaved = (await callOver(opened.open, CHANNELS.setApiKey, { apiKey: KEY })) as { result: { ok: boolean } };
    opened.open.close();
    if (!settingsSaved.result.ok || !keySaved.result.ok) throw new Error('The till could not be configured.');
    targets.push(...(await rewardHolders(sandbox.url, 6)));
    await openBrowser();
    await openTill();
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    if (shell) await stopShell(shell);
    await stopService();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('restarted (Ctrl+C, start) with the same browser profile: same port, same Outbox, redeemed once', async () => {
    const target = targets[0]!;
    await cacheRewardsOf(target);
    const port = portOf(address);
    await stopService();
    await queueOffline(target, 'ORD-RESTART');

    expect(await stopShell(shell)).toBe(0);
    await startShell();
    // One origin for one till: the port kept for the folder, a new secret.
    expect(portOf(address)).toBe(port);
    await openTill();
    await expectWaiting(1);
    expect(await sendAndCount(target)).toBe(1);
  });

  it('moved to another port on purpose: the new origin gets the item back from the till’s own copy, sent once', async () => {
    const target = targets[1]!;
    await cacheRewardsOf(target);
    await stopService();
    await queueOffline(target, 'ORD-NEW-PORT');

    await stopShell(shell);
    const port = await freePort();
    await startShell(['--port', String(port)]);
    expect(portOf(address)).toBe(port);
    await openTill();
    // A browser storage that never saw this till: said so, not a blank till.
    await expect.poll(() => page.getByTestId('work-restored').textContent()).toContain('held none of this till');
    expect(await page.getByTestId('work-restored').textContent()).toContain('1 queued item');
    await screenshotOf(page, '75-work-restored-new-origin');
    await expectWaiting(1);
    expect(await page.getByTestId('restored-note').textContent()).toContain("Put back from the till's own copy");
    await screenshotOf(page, '76-outbox-restored-item');
    expect(await sendAndCount(target)).toBe(1);

    // Kept: the next plain start stays on the new port.
    await stopShell(shell);
    await startShell();
    expect(portOf(address)).toBe(port);
    await openTill();
  });

  it('the page’s database deleted while an item waits (eviction, “clear site data”): put back and sent once', async () => {
    const target = targets[2]!;
    await cacheRewardsOf(target);
    await stopService();
    await queueOffline(target, 'ORD-CLEARED');

    await page.evaluate(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const deleting = indexedDB.deleteDatabase(name);
          deleting.onsuccess = () => resolve();
          deleting.onerror = () => reject(deleting.error);
        }),
      DEFAULT_DB_NAME,
    );
    // The page goes on; its next look at the outbox opens the database afresh, and reconciles.
    await expect.poll(() => page.getByTestId('work-restored').textContent()).toContain('1 queued item');
    await expectWaiting(1);
    expect(await sendAndCount(target)).toBe(1);
  });

  it('the browser’s whole process group killed right after “Queued”, then started again: there, sent once', async () => {
    const target = targets[3]!;
    await cacheRewardsOf(target);
    await stopService();
    await queueOffline(target, 'ORD-BROWSER-KILLED');

    await killBrowser();
    await openBrowser();
    await openTill();
    await expectWaiting(1);
    expect(await sendAndCount(target)).toBe(1);
  });

  it('the shell killed right after “Queued”, then started again: there, sent once', async () => {
    const target = targets[4]!;
    await cacheRewardsOf(target);
    await stopService();
    await queueOffline(target, 'ORD-SHELL-KILLED');
    const port = portOf(address);

    shell.child.kill('SIGKILL');
    await shell.exited;
    await startShell();
    expect(portOf(address)).toBe(port);
    await openTill();
    await expectWaiting(1);
    expect(await sendAndCount(target)).toBe(1);
  });

  it('made by the service with its answer lost, then the page’s copy lost: put back, reconciled as this till’s, made once', async () => {
    const target = targets[5]!;
    await cacheRewardsOf(target);
    await checkCode(page, target.code, target.phone);
    await expect
      .poll(() => page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent())
      .toBe('Available');
    await page.locator('#order-reference').fill('ORD-MADE');
    // The service makes every redemption from now on, and drops the connection before answering.
    sandbox.faults.set({ commitThenDropRate: 1 });
    await page.getByTestId('redeem-confirm').click();
    await expect
      .poll(() => page.getByTestId('queued').textContent())
      .toMatch(new RegExp(`^Not confirmed yet: .+${target.code} for `));
    await stopService();
    expect(madeOf(target.code)).toHaveLength(1);

    await page.evaluate(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const deleting = indexedDB.deleteDatabase(name);
          deleting.onsuccess = () => resolve();
          deleting.onerror = () => reject(deleting.error);
        }),
      DEFAULT_DB_NAME,
    );
    await expect.poll(() => page.getByTestId('work-restored').textContent()).toContain('1 queued item');
    await expectWaiting(1);
    expect(await sendAndCount(target)).toBe(1);
    expect(await page.locator(`[data-testid="outbox-done"] [data-code="${target.code}"]`).textContent()).toContain(
      'most likely this till’s',
    );
    expect(await outboxCount(page, 'conflict')).toBe(0);
  });

  it('says in Settings whether the browser keeps the till’s storage for good', async () => {
    await page.keyboard.press('F9');
    const storage = page.getByTestId('about-storage');
    await expect.poll(() => storage.getAttribute('data-persisted')).toMatch(/^(true|false|null)$/);
    await storage.scrollIntoViewIfNeeded();
    await screenshotOf(page, '77-settings-about-this-till');
    const persisted = await storage.getAttribute('data-persisted');
    expect(await storage.textContent()).toContain(
      persisted === 'true' ? 'keeps this till’s data for good' : 'kept by the till itself',
    );
    await page.keyboard.press('Escape');
  });
});

/** Customers of the service with a product reward waiting, with its code: one per scenario. */
async function rewardHolders(baseUrl: string, count: number): Promise<Target[]> {
  const headers = { authorization: `Bearer ${KEY}`, accept: 'application/json' };
  const listed = (await (await fetch(`${baseUrl}/v1/customers?per_page=100`, { headers })).json()) as {
    data: Array<{ id: string; name: string; phone: string }>;
  };
  const found: Target[] = [];
  for (const customer of listed.data) {
    if (found.length >= count) break;
    const full = (await (await fetch(`${baseUrl}/v1/customers/${customer.id}`, { headers })).json()) as {
      data: { rewards?: Array<{ code: string; status: string; type: string }> };
    };
    const reward = full.data.rewards?.find((r) => r.status === 'available' && r.type === 'product');
    if (reward) found.push({ code: reward.code, phone: customer.phone.replace(/\s/g, ''), name: customer.name });
  }
  if (found.length < count) throw new Error(`Only ${found.length} customers with a reward waiting.`);
  return found;
}

/** The browser's own process (not a renderer or helper): the one started with this profile and no --type. */
function browserPid(profile: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (args.some((arg) => arg === `--user-data-dir=${profile}`) && !args.some((arg) => arg.startsWith('--type=')))
      return Number(entry);
  }
  throw new Error(`No browser process runs with the profile ${profile}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
