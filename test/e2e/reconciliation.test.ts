/**
 * Whose redemption was it? End to end through the real screens, with the sandbox's own
 * record of which order reference each redemption carries as the judge. The sandbox's clock
 * is skewed to play a till whose clock is ten minutes off; "another till" redeems directly
 * on the service. The page's clock is Playwright's, so twenty minutes of a refused key take
 * seconds. The seconds between this till giving up and another till redeeming are let pass
 * on every clock at once (`passTime`: the service's, the main process's, the page's), so
 * the till's estimate of the service's clock holds still as it would over a real wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_FIXTURES, type Sandbox } from '../../sandbox';
import * as cashier from './cashier';
import { openOutbox, outboxCount as count } from './cashier';
import { SERVICE_KEY, startHarness, type Harness } from './harness';

const { layla, omar } = DEMO_FIXTURES;
const TEN_MINUTES = 10 * 60_000;

interface Target {
  code: string;
  phone: string;
  name: string;
}

describe('reconciliation a manager can trust', () => {
  let h: Harness;
  const targets: Target[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    await h.configureService();
    const branch = await h.call('updateSettings', { allowOfflineRedemption: true });
    if (!branch.ok) throw new Error(branch.error.message);
    // Customers with a reward waiting: the fixtures, then others from the demo data.
    targets.push(
      { code: layla.rewards.availableProduct, phone: layla.phone, name: layla.name },
      { code: layla.rewards.availablePoints, phone: layla.phone, name: layla.name },
      { code: omar.reward, phone: omar.phone, name: omar.name },
    );
    const list = await h.call('searchCustomers', { page: 1, per_page: 100 });
    if (!list.ok) throw new Error(list.error.message);
    for (const candidate of list.data) {
      if (targets.length >= 9) break;
      if ([layla.id, omar.id].includes(candidate.id as never)) continue;
      const full = await h.call('getCustomer', { id: candidate.id });
      const reward = full.ok
        ? full.data.rewards?.find((r) => r.status === 'available' && r.type === 'product')
        : undefined;
      if (reward) targets.push({ code: reward.code, phone: candidate.phone, name: candidate.name });
    }
    if (targets.length < 9) throw new Error('Not enough customers with a reward waiting.');
    h.page.on('pageerror', (error) => pageErrors.push(String(error)));
    h.page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    // The page's clock, to be moved on later (`passTime`); it runs at the real pace until then.
    await h.page.clock.install();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  // ---- what a cashier does -------------------------------------------------------------

  /** Lets `ms` pass without waiting, for the service, the main process and the page alike. */
  async function passTime(ms: number): Promise<void> {
    h.passTime(ms);
    await h.page.clock.fastForward(ms);
  }

  const openCustomer = (page: Page, { phone, name }: Target) => cashier.openCustomer(page, phone, name);
  const checkCode = (page: Page, { code, phone }: Target) => cashier.checkCode(page, code, phone);

  /**
   * Redeems online while the service misbehaves as `fault` says; the answer is lost, so the
   * attempt is recorded and the cashier told it is not confirmed yet.
   */
  async function redeemWithLostAnswer(
    target: Target,
    orderReference: string,
    fault: Parameters<Sandbox['faults']['set']>[0],
  ): Promise<void> {
    const { page } = h;
    await openCustomer(page, target);
    await checkCode(page, target);
    await cashier.confirmRedeem(page, orderReference, () => h.sandbox.faults.set(fault));
    await expect
      .poll(() => page.getByTestId('queued').textContent())
      .toMatch(new RegExp(`^Not confirmed yet: .+${target.code} for `));
    h.sandbox.faults.reset();
  }

  /** Queued while the service is down, checked against the cache. */
  async function queueOffline(target: Target, orderReference: string): Promise<void> {
    const { page } = h;
    await checkCode(page, target);
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    await page.locator('#order-reference').fill(orderReference);
    await page.getByTestId('redeem-confirm').click();
    await expect
      .poll(() => page.getByTestId('queued').textContent())
      .toMatch(new RegExp(`^Queued: .+${target.code} for `));
  }

  /** Another till, still connected, redeems on the service while this one cannot reach it. */
  const otherTillRedeems = ({ code, phone }: Target, orderReference: string) =>
    h.otherTillRedeems({ code, phone, orderReference });

  async function retryNow(page: Page): Promise<void> {
    await expect.poll(() => page.getByTestId('retry-now').isEnabled()).toBe(true);
    await page.getByTestId('retry-now').click();
    await expect.poll(() => page.getByTestId('retry-now').isEnabled()).toBe(true);
  }

  const conflictText = (code: string) =>
    h.page.locator(`[data-testid="outbox-conflict"] [data-code="${code}"]`).textContent();
  const doneText = (code: string) => h.page.locator(`[data-testid="outbox-done"] [data-code="${code}"]`).textContent();
  /** The oracle: whose order reference the service's redemption carries. */
  const whose = (code: string) =>
    h
      .allRedemptions()
      .filter((r) => r.code === code)
      .map((r) => r.order_reference);

  /** Sends the queue and waits until the item has left "waiting". */
  async function replay(code: string): Promise<void> {
    const { page } = h;
    await openOutbox(page);
    await retryNow(page);
    await expect.poll(() => page.locator(`[data-testid="outbox-pending"] [data-code="${code}"]`).count()).toBe(0);
  }

  async function expectConflictNotOurs(code: string): Promise<void> {
    await expect.poll(() => h.page.locator(`[data-testid="outbox-conflict"] [data-code="${code}"]`).count()).toBe(1);
    const text = (await conflictText(code)) ?? '';
    expect(text).toContain('already used');
    expect(text).not.toMatch(/confirmed/i);
    expect(text).not.toContain('most likely this till’s');
    expect(await h.page.locator(`[data-testid="outbox-done"] [data-code="${code}"]`).count()).toBe(0);
  }

  async function expectMostLikelyOurs(code: string): Promise<void> {
    await expect.poll(() => h.page.locator(`[data-testid="outbox-done"] [data-code="${code}"]`).count()).toBe(1);
    const text = (await doneText(code)) ?? '';
    expect(text).toMatch(
      /Redeemed during this till’s unanswered attempt at \d{2}:\d{2}:\d{2} — most likely this till’s/,
    );
    expect(text).not.toMatch(/confirmed/i);
    expect(await h.page.locator(`[data-testid="outbox-conflict"] [data-code="${code}"]`).count()).toBe(0);
  }

  // ---- the cases of issue 10 -----------------------------------------------------------

  it('our attempt reset before the request was read, another till redeems 5 s later: a conflict, not ours', async () => {
    const target = targets[0]!;
    await redeemWithLostAnswer(target, 'POS-RESET-1', { resetOnConnectRate: 1 });
    await h.stopSandbox();
    await passTime(5000);
    await otherTillRedeems(target, 'OTHER-TILL-1');
    await h.restartSandbox();
    await replay(target.code);

    expect(whose(target.code)).toEqual(['OTHER-TILL-1']);
    await expectConflictNotOurs(target.code);
    await h.screenshot('46-conflict-after-reset');
  });

  it('our attempt dropped after it was sent, another till redeems 5 s after we gave up: a conflict, not ours', async () => {
    const target = targets[3]!;
    await redeemWithLostAnswer(target, 'POS-DROP-1', { dropRate: 1 });
    await h.stopSandbox();
    await passTime(5000);
    await otherTillRedeems(target, 'OTHER-TILL-2');
    await h.restartSandbox();
    await replay(target.code);

    expect(whose(target.code)).toEqual(['OTHER-TILL-2']);
    await expectConflictNotOurs(target.code);
    expect(await conflictText(target.code)).toContain('outside every attempt of this till whose answer was lost');
  });

  it('commit-then-drop with the till 10 minutes ahead of the service: ours, "most likely"', async () => {
    h.skewServiceClock(-TEN_MINUTES);
    const target = targets[4]!;
    await redeemWithLostAnswer(target, 'POS-AHEAD-1', { commitThenDropRate: 1 });
    await replay(target.code);

    expect(whose(target.code)).toEqual(['POS-AHEAD-1']);
    await expectMostLikelyOurs(target.code);
    await expect
      .poll(() => h.page.getByTestId('clock-warning').textContent())
      .toContain('10 minutes ahead of the loyalty service’s');
  });

  it('commit-then-drop with the till 10 minutes behind the service: ours, "most likely", and the header says the clock is off', async () => {
    h.skewServiceClock(TEN_MINUTES);
    const target = targets[5]!;
    await redeemWithLostAnswer(target, 'POS-BEHIND-1', { commitThenDropRate: 1 });
    await replay(target.code);

    expect(whose(target.code)).toEqual(['POS-BEHIND-1']);
    await expectMostLikelyOurs(target.code);
    await expect
      .poll(() => h.page.getByTestId('clock-warning').textContent())
      .toContain('10 minutes behind the loyalty service’s');
    // The journal keeps the service's time of the outcome.
    expect(await doneText(target.code)).toContain('Service time');
    await h.screenshot('47-most-likely-ours-clock-warning');
  });

  it('another till redeems before this till queues it, till 10 minutes behind: a conflict', async () => {
    h.skewServiceClock(TEN_MINUTES);
    const target = targets[6]!;
    await openCustomer(h.page, target); // cached online
    await h.stopSandbox();
    await otherTillRedeems(target, 'OTHER-TILL-3');
    await passTime(1100);
    await queueOffline(target, 'POS-LATE-1');
    await h.restartSandbox();
    await replay(target.code);

    expect(whose(target.code)).toEqual(['OTHER-TILL-3']);
    await expectConflictNotOurs(target.code);
    h.skewServiceClock(0);
  });

  it('a hostile Retry-After (99999999999999 s, a date in 9999): a bounded wait, the cashier told, nothing thrown', async () => {
    h.skewServiceClock(0);
    const target = targets[7]!;
    const { page } = h;
    await openCustomer(page, target);
    await h.stopSandbox();
    await queueOffline(target, 'POS-HOSTILE-1');
    const service = await h.restartSandbox();
    const nextTry = page.locator(
      `[data-testid="outbox-pending"] [data-code="${target.code}"] [data-testid="next-try"]`,
    );
    const waitMs = async () =>
      Date.parse((await nextTry.getAttribute('data-at')) ?? 'x') - (await page.evaluate(() => Date.now()));
    const errorsBefore = pageErrors.length;

    for (const fault of [
      { retryAfterSeconds: 99999999999999 },
      { retryAfterHeader: 'Fri, 31 Dec 9999 23:59:59 GMT' },
    ]) {
      service.faults.set({ rateLimitRate: 1, ...fault });
      await openOutbox(page);
      await retryNow(page);
      await expect.poll(() => nextTry.count()).toBe(1);
      const wait = await waitMs();
      expect(wait).toBeGreaterThan(30 * 60_000);
      expect(wait).toBeLessThanOrEqual(60 * 60_000);
      expect(await nextTry.textContent()).toContain('the loyalty service asked the till to wait');
      service.faults.reset();
    }
    expect(pageErrors.slice(errorsBefore).filter((e) => /RangeError|Invalid time/.test(e))).toEqual([]);
    expect(await count(page, 'pending')).toBeGreaterThanOrEqual(1);
    await h.screenshot('48-hostile-retry-after');
    await retryNow(page); // a person may always send now
    await expect.poll(() => whose(target.code)).toEqual(['POS-HOSTILE-1']);
  });

  it('20 minutes of a refused key and "Retry now": once the right key is saved the queue drains within 10 s by itself', async () => {
    const { page } = h;
    const [first, second] = [targets[1]!, targets[8]!];
    await openCustomer(page, first);
    await openCustomer(page, second);
    await h.stopSandbox();
    await queueOffline(first, 'POS-KEY-1');
    await queueOffline(second, 'POS-KEY-2');
    expect((await h.call('setApiKey', { apiKey: 'revoked-key-0000' })).ok).toBe(true);
    const service = await h.restartSandbox();
    await openOutbox(page);

    // Twenty minutes on the till's clock: "Retry now" every two minutes, refused each time;
    // now and then the service, hammered, also answers 429 with a two-hour Retry-After.
    for (let minute = 2; minute <= 20; minute += 2) {
      await page.clock.fastForward('02:00');
      const busy = minute % 6 === 0 || minute === 20;
      if (busy) service.faults.set({ rateLimitRate: 1, retryAfterSeconds: 7200 });
      await retryNow(page);
      service.faults.reset();
    }
    // Hours of back-off are waiting on the first item now.
    const nextTry = page.locator(`[data-testid="outbox-pending"] [data-code="${first.code}"] [data-testid="next-try"]`);
    await expect.poll(() => nextTry.count()).toBe(1);
    const waiting =
      Date.parse((await nextTry.getAttribute('data-at')) ?? 'x') - (await page.evaluate(() => Date.now()));
    expect(waiting).toBeGreaterThan(30 * 60_000);
    expect(whose(first.code)).toEqual([]);

    // A manager saves the right key; nobody presses anything after that.
    await page.keyboard.press('F9');
    await page.locator('#api-key').fill(SERVICE_KEY);
    await page.getByRole('button', { name: 'Save settings' }).click();
    const saved = Date.now();
    await expect
      .poll(() => [...whose(first.code), ...whose(second.code)], { timeout: 10_000, interval: 100 })
      .toEqual(['POS-KEY-1', 'POS-KEY-2']);
    expect(Date.now() - saved).toBeLessThan(10_000);
    await expect.poll(() => page.getByTestId('header-outbox-pending').count()).toBe(0);
  });
});
