/**
 * The till through a network outage, end to end: the built app in Chromium, the real main
 * process handlers, a real sandbox that is stopped ("offline") and started again on the same
 * port with the same data ("reconnected"). Nothing is mocked; the outbox lives in the
 * page's IndexedDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_FIXTURES } from '../../sandbox';
import { checkCode, openCustomer, openOutbox, outboxCount as count, resultNames as names, search } from './cashier';
import { SERVICE_KEY, startHarness, type Harness } from './harness';

const { layla, omar, soren } = DEMO_FIXTURES;
const BRANCH_ID = '5c2d7e10-8a4b-4f6c-9d1e-2b3a4c5d6e7f';

describe('working through an outage: the cache, the outbox and its replay', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    await h.configureService();
    const branch = await h.call('updateSettings', { branchId: BRANCH_ID, allowOfflineRedemption: true });
    if (!branch.ok) throw new Error(branch.error.message);
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  // ---- what a cashier does -------------------------------------------------------------

  async function queueRedemption(page: Page, code: string, phone: string, orderReference: string): Promise<void> {
    await checkCode(page, code, phone);
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    await page.locator('#order-reference').fill(orderReference);
    await page.getByTestId('redeem-confirm').click();
    await expect.poll(() => page.getByTestId('queued').textContent()).toMatch(new RegExp(`^Queued: .+${code} for `));
  }

  const redemptionsOf = (code: string) => h.sandbox.redemptions().filter((r) => r.code === code);

  // ---- the scenarios, in the order an outage happens ------------------------------------

  it('fills the cache in the background by itself and shows how far it got', async () => {
    await h.page.keyboard.press('F9');
    await expect.poll(() => h.page.getByTestId('cache-refresh').textContent()).toContain('Last complete refresh:');
    expect(await h.page.locator('#allow-offline-redemption').isChecked()).toBe(true);
    await h.screenshot('39-settings-offline');
    await h.page.keyboard.press('Escape');
    // Customers the cashier opens are cached with their rewards, for the offline check.
    await openCustomer(h.page, layla.phone, layla.name);
    await openCustomer(h.page, omar.phone, omar.name);
    await expect.poll(() => h.page.getByTestId('connection').textContent()).toContain('Connected');
  });

  it('searches by phone, by name and by part of the number from the cache, saying so', async () => {
    const { page } = h;
    await h.stopSandbox();

    await search(page, '050 123 4567');
    await expect.poll(() => names(page)).toEqual([layla.name]);
    await expect
      .poll(() => page.getByTestId('cache-note').textContent())
      .toMatch(/from the cache of \d{1,2} [A-Z][a-z]{2} \d{4}/);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Service unreachable');

    // Søren was never looked up: the background refresh brought him into the cache.
    await search(page, 'østergaard');
    await expect.poll(() => names(page)).toContain(soren.name);
    expect(await page.getByTestId('cache-note').textContent()).toContain('from the cache of');

    await search(page, '0123456');
    await expect.poll(() => names(page)).toEqual(expect.arrayContaining([layla.name, soren.name]));
    expect(await page.getByTestId('cache-note').textContent()).toContain('from the cache of');
    await h.screenshot('40-offline-cache-results');
  });

  it('checks a cached code against the cache, and will not accept a code the cache does not hold', async () => {
    const { page } = h;
    await openCustomer(page, layla.phoneShown, layla.name);
    expect(await page.getByTestId('customer-cache-note').textContent()).toContain('shown from the cache of');
    await page.keyboard.press('F3');
    await page.locator('#reward-code').fill(layla.rewards.availableProduct);
    await page.locator('#reward-code').press('Enter');
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    // The cache's word, not the service's green "Available".
    await expect
      .poll(() => page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent())
      .toBe('Available by the till’s cache');

    await page.locator('#reward-code').fill('RW-NOTCACHED1');
    await page.locator('#reward-code').press('Enter');
    await expect.poll(() => page.getByTestId('offline-refusal').textContent()).toContain('cannot be verified offline');
    expect(await page.getByTestId('redeem-confirm').count()).toBe(0);
  });

  it('queues a redemption only once it is stored, and shows the reward as pending', async () => {
    const { page } = h;
    await queueRedemption(page, layla.rewards.availableProduct, layla.phone, 'POS-OFF-1');
    expect(await page.getByTestId('queued').textContent()).toContain('when the till reconnects');
    await expect.poll(() => page.getByTestId('header-outbox-pending').textContent()).toBe('1 waiting');
    await h.screenshot('41-offline-queued');

    // Checking it again says it is already queued here, and offers no second redemption.
    await checkCode(page, layla.rewards.availableProduct, layla.phone);
    await expect.poll(() => page.getByTestId('reward-pending').textContent()).toContain('already queued on this till');
    expect(await page.getByTestId('redeem-confirm').count()).toBe(0);
    // The customer screen marks it too.
    await openCustomer(page, layla.phone, layla.name);
    const reward = page.locator(`.reward-list__item:has([data-code="${layla.rewards.availableProduct}"])`);
    expect(await reward.locator('[data-testid="reward-state"]').textContent()).toBe('Redemption queued on this till');
    expect(await reward.getByRole('button').count()).toBe(0);
    await h.screenshot('41b-offline-customer-pending');
  });

  it('keeps the queue through a reload while offline', async () => {
    const { page } = h;
    await page.reload();
    await page.locator('#search').waitFor();
    await openOutbox(page);
    await expect.poll(() => count(page, 'pending')).toBe(1);
    const item = page.locator(`[data-testid="outbox-pending"] [data-code="${layla.rewards.availableProduct}"]`);
    expect(await item.textContent()).toContain('POS-OFF-1');
    // The branch by its id, the same on every till of it; the phone grouped as on every other screen.
    expect(await item.textContent()).toContain(`${BRANCH_ID} (this branch)`);
    expect(await item.textContent()).toContain(layla.phoneShown);
    await h.screenshot('43-outbox-after-reload');
    expect(await page.getByTestId('header-outbox-pending').textContent()).toBe('1 waiting');
  });

  it('replays when the service is back: redeemed once, with the order reference and branch', async () => {
    const { page } = h;
    await h.restartSandbox();
    await page.getByTestId('retry-now').click();
    await expect.poll(() => count(page, 'done')).toBe(1);
    expect(await count(page, 'pending')).toBe(0);
    const sent = redemptionsOf(layla.rewards.availableProduct);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ order_reference: 'POS-OFF-1', branch_id: BRANCH_ID, customer_id: layla.id });
    expect(
      await page.locator(`[data-testid="outbox-done"] [data-code="${layla.rewards.availableProduct}"]`).textContent(),
    ).toContain('Redeemed');

    // Another replay finds nothing more to send.
    await page.getByTestId('retry-now').click();
    await expect.poll(() => page.getByTestId('last-replay').textContent()).toContain('Nothing is waiting to be sent.');
    expect(redemptionsOf(layla.rewards.availableProduct)).toHaveLength(1);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
  });

  it('reconciles a redemption whose answer was lost to done, not conflict, and redeems nothing twice', async () => {
    const { page } = h;
    const code = layla.rewards.availablePoints;
    await h.stopSandbox();
    await queueRedemption(page, code, layla.phone, 'POS-OFF-2');

    const service = await h.restartSandbox();
    // The service performs every request, then drops the connection instead of answering.
    service.faults.set({ commitThenDropRate: 1 });
    await openOutbox(page);
    await page.getByTestId('retry-now').click();
    await expect.poll(() => redemptionsOf(code)).toHaveLength(1);
    await expect.poll(() => page.getByTestId('retry-now').isEnabled()).toBe(true);
    expect(await count(page, 'pending')).toBe(1); // the till never heard back

    service.faults.reset();
    await page.getByTestId('retry-now').click();
    await expect.poll(() => count(page, 'pending')).toBe(0);
    expect(await count(page, 'conflict')).toBe(0);
    expect(await page.locator(`[data-testid="outbox-done"] [data-code="${code}"]`).textContent()).toContain(
      'most likely this till’s',
    );
    expect(redemptionsOf(code)).toHaveLength(1);
    expect(redemptionsOf(code)[0]).toMatchObject({ order_reference: 'POS-OFF-2', branch_id: BRANCH_ID });
  });

  it('ends in a conflict, shown to the cashier, when the reward was used elsewhere while the till was offline', async () => {
    const { page } = h;
    await h.stopSandbox();
    // While this till is offline, another till, still connected, redeems the same reward.
    await h.otherTillRedeems({ code: omar.reward, phone: omar.phone, orderReference: 'OTHER-TILL-7' });
    // This till, offline, still has the reward as available in its cache and queues it. The
    // service's times are to the second, so its every attempt comes in a later second: a
    // second passes for the service and the till's main process alike (its estimate of the
    // service's clock holds still), without waiting.
    h.passTime(1100);
    await queueRedemption(page, omar.reward, omar.phone, 'POS-OFF-3');

    await h.restartSandbox();
    await openOutbox(page);
    await page.getByTestId('retry-now').click();
    await expect.poll(() => count(page, 'conflict')).toBe(1);
    const item = page.locator(`[data-testid="outbox-conflict"] [data-code="${omar.reward}"]`);
    expect(await item.textContent()).toContain('The reward was already used: not by this till.');
    expect(await item.textContent()).toMatch(
      /redeemed on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} \(the service’s time\)/,
    );
    expect(await item.textContent()).toContain('POS-OFF-3');
    await expect.poll(() => page.getByTestId('header-outbox-conflicts').textContent()).toContain('1 conflict');
    expect(redemptionsOf(omar.reward)).toHaveLength(0); // this till redeemed nothing
    await h.screenshot('42-outbox-conflict');

    // Nothing disappears without a person: acknowledging moves it to the journal.
    await item.getByTestId('acknowledge').click();
    await expect.poll(() => count(page, 'conflict')).toBe(0);
    expect(await page.locator(`[data-testid="outbox-done"] [data-code="${omar.reward}"]`).textContent()).toContain(
      'Conflict, acknowledged',
    );
  });

  it('exports the journal as a CSV download', async () => {
    const { page } = h;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-journal').click()]);
    expect(download.suggestedFilename()).toMatch(/^loyalty-till-journal-\d{4}-\d{2}-\d{2}\.csv$/);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const csv = await readFile(path, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('time,code,customer,order reference,branch,outcome,service time,cashier,state,reward,points');
    expect(lines.find((line) => line.includes(layla.rewards.availableProduct))).toContain(
      `POS-OFF-1,${BRANCH_ID},redeemed`,
    );
    expect(lines.find((line) => line.includes(omar.reward))).toContain('conflict (acknowledged)');
  });

  it('redeems nothing twice when two windows replay at once', async () => {
    const { page } = h;
    // Three more customers with a reward waiting, opened online so their rewards are cached.
    const picked: Array<{ code: string; phone: string; name: string }> = [];
    const list = await h.call('searchCustomers', { page: 1, per_page: 100 });
    if (!list.ok) throw new Error(list.error.message);
    for (const candidate of list.data) {
      if (picked.length === 3) break;
      if ([layla.id, omar.id].includes(candidate.id as never)) continue;
      const full = await h.call('getCustomer', { id: candidate.id });
      const reward = full.ok ? full.data.rewards?.find((r) => r.status === 'available') : undefined;
      if (reward && full.ok) picked.push({ code: reward.code, phone: candidate.phone, name: candidate.name });
    }
    expect(picked).toHaveLength(3);
    for (const { phone, name } of picked) await openCustomer(page, phone, name);

    await h.stopSandbox();
    for (const [i, { code, phone }] of picked.entries()) await queueRedemption(page, code, phone, `POS-TWO-${i}`);

    const second = await h.context.newPage();
    try {
      await second.goto(h.appUrl);
      await second.locator('#search').waitFor();
      await openOutbox(second);
      await expect.poll(() => count(second, 'pending')).toBe(3); // one outbox, shared by both windows
      await openOutbox(page);

      const callsBefore = h.bridgeCalls.length; // calls that failed to connect are left out below
      await h.restartSandbox();
      await Promise.all([page.getByTestId('retry-now').click(), second.getByTestId('retry-now').click()]);
      await expect.poll(() => count(page, 'pending')).toBe(0);
      await expect.poll(() => count(second, 'pending')).toBe(0);
      for (const [i, { code }] of picked.entries()) {
        expect(redemptionsOf(code)).toHaveLength(1);
        expect(redemptionsOf(code)[0]?.order_reference).toBe(`POS-TWO-${i}`);
      }
      // The service would refuse a second redeem anyway; what shows a single replayer is
      // that each item reached the service once, and was confirmed as redeemed, not "answer lost".
      const redeemsSent = h.bridgeCalls
        .slice(callsBefore)
        .filter(
          (call) => call.channel === 'till:rewards:redeem' && call.outcome !== 'offline' && call.outcome !== 'timeout',
        )
        .map((call) => (call.payload as { reward_code: string }).reward_code);
      expect(redeemsSent.sort()).toEqual(picked.map((p) => p.code).sort());
      for (const { code } of picked) {
        await expect
          .poll(() => second.locator(`[data-testid="outbox-done"] [data-code="${code}"] .badge`).textContent())
          .toBe('Redeemed');
      }
      // Both windows keep replaying on their own timers: once no replay runs, every call is
      // answered and the shared outbox holds nothing pending, no later replay can send again.
      await h.settled();
      expect(await count(page, 'pending')).toBe(0);
      for (const { code } of picked) expect(redemptionsOf(code)).toHaveLength(1);
      expect(await count(second, 'conflict')).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('registers a customer while offline: usable at once, sent on reconnect', async () => {
    const { page } = h;
    await h.stopSandbox();
    await search(page, '+966 55 111 2233');
    await page.getByTestId('no-results').waitFor();
    await page.locator('#search').press('Enter'); // a second Enter goes on to register
    await page.locator('#name').fill('Huda Offline');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByTestId('customer-name').textContent()).toBe('Huda Offline');
    expect(await page.getByTestId('customer-notice').textContent()).toContain(
      'sent to the loyalty service when the till reconnects',
    );
    expect(await page.getByTestId('customer-local').textContent()).toContain('does not know this customer yet');
    await search(page, 'huda offl');
    await expect.poll(() => names(page)).toEqual(['Huda Offline']);
    await expect.poll(() => page.getByTestId('header-outbox-pending').textContent()).toBe('1 waiting');
  });

  it('pauses the queue when the key is refused, says what to do, and goes on once a good key is saved', async () => {
    const { page } = h;
    const refused = await h.call('setApiKey', { apiKey: 'revoked-key-0000' });
    expect(refused.ok).toBe(true);
    await h.restartSandbox();
    await openOutbox(page);
    await page.getByTestId('retry-now').click();
    await expect.poll(() => page.getByTestId('replay-paused').textContent()).toContain('refused this till’s API key');
    expect(await page.getByTestId('replay-paused').textContent()).toContain('Settings (F9)');
    expect(await page.getByTestId('connection').textContent()).toContain('Connected, key refused');
    expect(await count(page, 'pending')).toBe(1); // nothing lost
    await h.screenshot('44-replay-paused');

    const inService = async () => {
      const response = await fetch(`${h.sandbox.url}/v1/customers?phone=%2B966551112233`, {
        headers: { authorization: `Bearer ${SERVICE_KEY}`, accept: 'application/json' },
      });
      return ((await response.json()) as { data: Array<{ name: string }> }).data.map((c) => c.name);
    };
    expect(await inService()).toEqual([]);

    await page.keyboard.press('F9');
    await page.locator('#api-key').fill(SERVICE_KEY);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByTestId('replay-paused').count()).toBe(0);
    await expect.poll(() => page.getByTestId('connection').textContent()).toBe('Connected');
    // Nothing waits: the header says no count at all.
    await expect.poll(() => page.getByTestId('header-outbox-pending').count(), { timeout: 20_000 }).toBe(0);
    expect(await inService()).toEqual(['Huda Offline']);
  });

  it('refuses an offline redemption in plain words when Settings forbid it, and queues nothing', async () => {
    const { page } = h;
    // A customer with a reward still waiting, opened online so the reward is cached.
    const list = await h.call('searchCustomers', { page: 2, per_page: 100 });
    if (!list.ok) throw new Error(list.error.message);
    let target: { code: string; phone: string; name: string } | null = null;
    for (const candidate of list.data) {
      const full = await h.call('getCustomer', { id: candidate.id });
      const reward = full.ok ? full.data.rewards?.find((r) => r.status === 'available') : undefined;
      if (reward) {
        target = { code: reward.code, phone: candidate.phone, name: candidate.name };
        break;
      }
    }
    if (!target) throw new Error('No customer on page 2 has a reward waiting.');
    await openCustomer(page, target.phone, target.name);

    await page.keyboard.press('F9');
    await page.locator('#allow-offline-redemption').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => h.call('getState').then((r) => r.ok && r.data.settings.allowOfflineRedemption)).toBe(false);

    await h.stopSandbox();
    await checkCode(page, target.code, target.phone);
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    await expect
      .poll(() => page.getByTestId('offline-redemption-off').textContent())
      .toContain('can’t be redeemed while the loyalty service is unreachable');
    expect(await page.getByTestId('redeem-confirm').count()).toBe(0);
    // One statement, not a green "Available" under a red refusal.
    expect(await page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent()).toBe(
      'Available — can’t be redeemed while offline',
    );
    expect(await page.locator('.notice--error').count()).toBe(0);
    expect(await page.getByTestId('header-outbox-pending').count()).toBe(0);
    await h.screenshot('45-offline-redemption-off');
  });
});
