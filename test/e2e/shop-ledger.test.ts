/**
 * Three tills of one shop through an outage of the service, with their LAN up (issue 32,
 * docs/shop-ledger.md): three app cores and three pages, one sandbox stopped and started
 * again. Each till names the other two in Settings (loopback stands in for the LAN; discovery
 * by mDNS is tested on its own in test/electron/shop-ledger/discovery.test.ts).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHANNELS } from '../../common/contract';
import { DEMO_FIXTURES } from '../../sandbox';
import {
  checkCode,
  openCustomer,
  openOutbox,
  outboxCount,
  redeemOffline as redeemAt,
  toldAfterRedeem,
} from './cashier';
import { startHarness, type Harness, type TillPage } from './harness';
import { freePort } from '../support/free-port';

const { layla, omar } = DEMO_FIXTURES;
const BRANCH_ID = '5c2d7e10-8a4b-4f6c-9d1e-2b3a4c5d6e7f';
const A = layla.rewards.availableProduct;
const B = omar.reward;
const C = layla.rewards.availablePoints;
const PHONE: Record<string, string> = { [A]: layla.phone, [B]: omar.phone, [C]: layla.phone };
const redeemOffline = (page: Page, code: string, orderReference: string) =>
  redeemAt(page, code, PHONE[code]!, orderReference);

describe('the tills of one shop keep the promise together while the service is down', () => {
  let h: Harness;
  let tills: [TillPage, TillPage, TillPage];
  let ports: number[];

  const ledger = async (index: number, on: boolean): Promise<void> => {
    const till = tills[index]!;
    expect((await till.call('updateSettings', { shopLedger: on })).ok).toBe(true);
    await till.core.shopLedgerSettled();
  };

  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    tills = [h.till, await h.openAnotherTill(), await h.openAnotherTill()];
    ports = [await freePort(), await freePort(), await freePort()];
    for (const [index, till] of tills.entries()) {
      await till.configureService();
      const saved = await till.call('updateSettings', {
        tillName: `Till ${index + 1}`,
        branchId: BRANCH_ID,
        allowOfflineRedemption: true,
        shopLedger: true,
        shopLedgerPort: ports[index],
        shopPeers: ports.filter((_port, other) => other !== index).map((port) => `127.0.0.1:${port}`),
      });
      if (!saved.ok) throw new Error(saved.error.message);
      await till.core.shopLedgerSettled();
      await till.openApp();
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  it('each till caches the customers while online; then the service goes down', async () => {
    for (const till of tills) {
      await openCustomer(till.page, layla.phone, layla.name);
      await openCustomer(till.page, omar.phone, omar.name);
    }
    await h.stopSandbox();
  });

  it('a reward redeemed offline at till 1: the check at tills 2 and 3 names till 1 and offers no redeem', async () => {
    const [one, two, three] = tills;
    expect(await redeemOffline(one.page, A, 'POS-1-A')).toEqual({
      queued: expect.stringMatching(new RegExp(`^Queued: .+${A} for `)),
    });
    for (const till of [two, three]) {
      const outcome = await redeemOffline(till.page, A, 'POS-X-A');
      expect(outcome).toEqual({
        claimedAtCheck: expect.stringMatching(/^Redeemed at Till 1 at .+, waiting to be sent$/),
      });
    }
    await two.screenshot('65-shop-claimed-elsewhere');
    // The customer's reward list says so too, with no redeem offered.
    await openCustomer(two.page, layla.phone, layla.name);
    const listed = two.page.locator(`.reward-list__item:has([data-code="${A}"])`);
    await expect
      .poll(() => listed.locator('[data-testid="reward-state"]').textContent())
      .toMatch(/^Redeemed at Till 1 at /);
    expect(await listed.locator('[data-redeem]').count()).toBe(0);
    // The refused attempt is in till 2's journal: its report counts it.
    await two.page.keyboard.press('F7');
    await expect.poll(() => two.page.getByTestId('report-total-refused').textContent()).toBe('1');
    for (const till of [two, three]) {
      await openOutbox(till.page);
      await expect.poll(() => outboxCount(till.page, 'pending')).toBe(0);
    }
  });

  it('a till whose ledger starts later learns the claims from the tills it reaches', async () => {
    const [, , three] = tills;
    // Till 3 restarts its ledger while till 1 is gone: only till 2 can tell it of till 1's claim.
    await ledger(2, false);
    await ledger(0, false);
    await ledger(2, true);
    const outcome = await redeemOffline(three.page, A, 'POS-3-A');
    expect(outcome).toEqual({ claimedAtCheck: expect.stringMatching(/^Redeemed at Till 1 at /) });
    await ledger(0, true);
  });

  it('a till that cannot be reached: the cashier is asked before anything is queued, one key per answer', async () => {
    const [, two] = tills;
    await ledger(2, false);
    const outcome = await redeemOffline(two.page, B, 'POS-2-B');
    expect(outcome).toEqual({
      asked: expect.stringContaining(
        'Till 3 can’t be reached: it may have redeemed this reward. Ask at Till 3 or redeem anyway.',
      ),
    });
    await two.screenshot('66-shop-till-unreachable');
    // Esc: "Ask at Till 3". Nothing queued, the redeem still there.
    await two.page.keyboard.press('Escape');
    await expect.poll(() => two.page.getByTestId('shop-split-question').count()).toBe(0);
    expect(await two.page.getByTestId('redeem-confirm').count()).toBe(1);
    // Asked again, F5: "Redeem anyway".
    await two.page.getByTestId('redeem-confirm').click();
    await two.page.getByTestId('shop-split-question').waitFor();
    await two.page.keyboard.press('F5');
    expect(await toldAfterRedeem(two.page)).toEqual({
      queued: expect.stringMatching(new RegExp(`^Queued: .+${B} for `)),
    });
    await ledger(2, true);
  });

  it('two tills redeeming the same reward at the same moment: exactly one hands it over', async () => {
    const [one, two] = tills;
    for (const till of [one, two]) {
      await checkCode(till.page, C, PHONE[C]!);
      await expect.poll(() => till.page.getByTestId('offline-check').textContent()).toContain('checked against');
      await till.page.locator('#order-reference').fill(`POS-C-${till === one ? 1 : 2}`);
    }
    await Promise.all([one, two].map((till) => till.page.getByTestId('redeem-confirm').click()));
    const told = await Promise.all(
      [one, two].map(async (till) => {
        const shown = till.page.locator('[data-testid="queued"], [data-testid="redeem-refused"]').first();
        await shown.waitFor();
        return shown.getAttribute('data-testid');
      }),
    );
    expect([...told].sort()).toEqual(['queued', 'redeem-refused']);
    const loser = told[0] === 'queued' ? two : one;
    const winner = loser === one ? 'Till 2' : 'Till 1';
    expect(await loser.page.getByTestId('redeem-refused').textContent()).toMatch(
      new RegExp(`^Already redeemed at ${winner} at `),
    );
    await openOutbox(loser.page);
    // The loser withdrew what it had queued: nothing of C waits there.
    await expect.poll(() => loser.page.locator(`[data-testid="outbox-pending"] [data-code="${C}"]`).count()).toBe(0);
  });

  it('the service back: one redemption of each reward, and every journal tells the same story', async () => {
    await h.restartSandbox();
    for (const till of tills) {
      await openOutbox(till.page);
      await till.page.getByTestId('retry-now').click();
      await expect.poll(() => outboxCount(till.page, 'pending')).toBe(0);
      expect(await outboxCount(till.page, 'conflict')).toBe(0);
      expect(await outboxCount(till.page, 'failed')).toBe(0);
    }
    for (const till of tills) await till.settled();
    const made = h.allRedemptions().map((redemption) => redemption.code);
    expect([...made].sort()).toEqual([A, B, C].sort());

    // Each till's journal: only its own redemptions, each once, and together exactly the service's.
    const journaled: string[] = [];
    for (const till of tills) {
      const rows = till.page.locator('[data-testid="outbox-done"] [data-code]');
      for (const row of await rows.all()) journaled.push((await row.getAttribute('data-code')) ?? '');
    }
    expect([...journaled].sort()).toEqual([A, B, C].sort());
    await tills[0].screenshot('67-shop-replayed');
  });

  it('a reward another till of the chain redeemed meanwhile: Till 2’s item stuck in conflict', async () => {
    const [, two] = tills;
    // A customer with a reward, opened at Till 2 while online, so its cache holds the reward.
    const list = await two.call('searchCustomers', { page: 1, per_page: 100 });
    if (!list.ok) throw new Error(list.error.message);
    let picked: { code: string; phone: string; name: string } | null = null;
    for (const candidate of list.data) {
      if (picked || [layla.id, omar.id].includes(candidate.id as never)) continue;
      const full = await two.call('getCustomer', { id: candidate.id });
      const reward = full.ok ? full.data.rewards?.find((r) => r.status === 'available') : undefined;
      if (reward) picked = { code: reward.code, phone: candidate.phone, name: candidate.name };
    }
    if (!picked) throw new Error('no customer with a reward waiting');
    await openCustomer(two.page, picked.phone, picked.name);
    await h.stopSandbox();
    // The service, used by a till of another shop, redeems it while this shop is offline.
    await h.otherTillRedeems({ code: picked.code, phone: picked.phone, orderReference: 'ELSEWHERE-9' });
    expect(await redeemAt(two.page, picked.code, picked.phone, 'POS-2-STUCK')).toEqual({
      queued: expect.stringMatching(/^Queued: /),
    });
    await h.restartSandbox();
    await openOutbox(two.page);
    await two.page.getByTestId('retry-now').click();
    await expect.poll(() => outboxCount(two.page, 'conflict')).toBe(1);
  });

  it('F7, the whole shop: the tills’ reports merged, and a silent till named', async () => {
    const [one] = tills;
    await ledger(2, false); // Till 3 is gone from the LAN
    await one.page.keyboard.press('F7');
    await one.page.getByTestId('report-scope-shop').click();
    const byTill = one.page.getByTestId('report-by-till');
    await byTill.waitFor();
    expect(
      await byTill.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key'))),
    ).toEqual(['Till 1', 'Till 2']);
    // The header says whose figures these are, on screen and in the PDF's title; the scope's
    // button shows it pressed, as the period's does (one component, one look).
    expect(await one.page.getByTestId('report-meta').textContent()).toContain('The whole shop');
    const background = (testId: string) =>
      one.page.getByTestId(testId).evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(await one.page.getByTestId('report-scope-shop').getAttribute('aria-pressed')).toBe('true');
    expect(await background('report-scope-shop')).toBe(await background('report-period-shift'));
    expect(await background('report-scope-shop')).not.toBe(await background('report-scope-till'));
    expect(await one.page.title()).toContain('The whole shop');
    expect(await one.page.getByTestId('report-silent').textContent()).toContain(
      'No report from Till 3: their figures are missing from these totals.',
    );
    // The ask went out and came back: Till 2's page took the request on its long poll, built
    // its report and answered that very request.
    const [, two] = tills;
    const taken = two.bridgeCalls
      .filter((call) => call.channel === CHANNELS.shopReportRequest && call.outcome === 'ok')
      .map((call) => (call.answer as { request: { id: number } | null }).request)
      .filter((request) => request !== null);
    expect(taken).toHaveLength(1);
    const answered = two.bridgeCalls.filter((call) => call.channel === CHANNELS.shopReportAnswer);
    expect(answered).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ id: taken[0]!.id }), outcome: 'ok' }),
    ]);
    // Till 2's refused attempt is in the shop's totals.
    expect(Number(await one.page.getByTestId('report-total-refused').textContent())).toBeGreaterThanOrEqual(1);
    // Till 2's stuck item, seen at Till 1: its outbox's line says it, marked, beside Till 1's empty one.
    const outbox = one.page.getByTestId('report-outbox-by-till');
    const cells = (till: string) =>
      outbox
        .locator(`tbody tr[data-key="${till}"] td`)
        .evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-cell'), td.textContent?.trim()]));
    expect(await cells('Till 2')).toEqual([
      ['waiting', '0'],
      ['failed', '0'],
      ['conflicts', '1'],
      ['oldest', 'under an hour'],
    ]);
    expect(await outbox.locator('tbody tr[data-key="Till 2"]').getAttribute('data-stuck')).toBe('true');
    expect(await cells('Till 1')).toEqual([
      ['waiting', '0'],
      ['failed', '0'],
      ['conflicts', '0'],
      ['oldest', 'Nothing'],
    ]);
    expect(await outbox.locator('tbody tr[data-key="Till 1"]').getAttribute('data-stuck')).toBe('false');
    // The CSV carries it too.
    const [download] = await Promise.all([
      one.page.waitForEvent('download'),
      one.page.getByTestId('report-csv').click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.split('\r\n')).toContainEqual(expect.stringMatching(/^till,Till 2,(\d+,){6}0,0,1,0$/));
    await one.screenshot('69-shop-report');
    await outbox.scrollIntoViewIfNeeded();
    await one.screenshot('85-shop-report-outbox-by-till');
    // In Arabic, right to left: the same table, the age in Arabic's words and digits.
    expect((await one.call('updateSettings', { language: 'ar' })).ok).toBe(true);
    await one.page.reload();
    await one.page.keyboard.press('F7');
    await one.page.getByTestId('report-scope-shop').click();
    await expect
      .poll(() => cells('Till 2'))
      .toEqual([
        ['waiting', '٠'],
        ['failed', '٠'],
        ['conflicts', '١'],
        ['oldest', 'أقل من ساعة'],
      ]);
    await outbox.scrollIntoViewIfNeeded();
    await one.screenshot('86-shop-report-outbox-by-till-arabic');
    expect((await one.call('updateSettings', { language: null })).ok).toBe(true);
    await one.page.reload();
    await one.page.keyboard.press('F7');
    await one.page.getByTestId('report-scope-till').click();
    await expect.poll(() => one.page.getByTestId('report-by-till').count()).toBe(0);
    await ledger(2, true);
  });

  it('Settings show the shop group with what this till keeps', async () => {
    const [one] = tills;
    await one.page.keyboard.press('F9');
    const group = one.page.getByTestId('shop-ledger-settings');
    await group.scrollIntoViewIfNeeded();
    expect(await one.page.locator('#shop-ledger').isChecked()).toBe(true);
    expect(await one.page.locator('#shop-redeem-when-split').isChecked()).toBe(true);
    expect(await one.page.locator('#shop-peers').inputValue()).toBe(
      ports
        .slice(1)
        .map((port) => `127.0.0.1:${port}`)
        .join('\n'),
    );
    expect(await one.page.locator('#shop-ledger-port').inputValue()).toBe(String(ports[0]));
    await one.screenshot('68-settings-shop-ledger');
  });
});
