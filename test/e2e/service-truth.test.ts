/**
 * The till tells the truth against another service's dialect (docs/service-reading.md):
 * the sandbox answers as a service built on a common PHP framework would, and misbehaves
 * after committing a redemption. The service's own record of its redemptions is the judge:
 * one each, and the screen, the Outbox, the journal and its CSV say what happened.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import * as cashier from './cashier';
import { openOutbox, outboxCount as count } from './cashier';
import { startHarness, type Harness } from './harness';

const { layla, omar } = DEMO_FIXTURES;

describe('the truth about a redemption, against another service’s dialect', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ dialect: 'laravel' });
    await h.configureService();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  const redemptionsOf = (code: string) => h.sandbox.redemptions().filter((r) => r.code === code);

  /** Checks the code online and confirms it with `orderReference`, under `fault`. */
  async function redeemUnder(
    target: { phone: string; code: string },
    orderReference: string,
    fault: Parameters<Harness['sandbox']['faults']['set']>[0],
  ): Promise<void> {
    await cashier.checkCode(h.page, target.code, target.phone);
    await cashier.confirmRedeem(h.page, orderReference, () => h.sandbox.faults.set(fault));
  }

  it('reads the dialect: a customer with a date-time birthday and numeric strings opens with her points', async () => {
    const { page } = h;
    await cashier.openCustomer(page, layla.phone, layla.name);
    // Sent as 1990-04-12T00:00:00.000000Z: the date the service wrote, not a day off.
    await expect.poll(() => page.getByTestId('customer-birthday').textContent()).toBe('12 April 1990');
    // Sent as the string "180".
    expect(await page.getByTestId('card-points').first().textContent()).toBe('180');
  });

  it('a 503 after the service committed: "not confirmed yet", recorded, then settled as this till’s; redeemed once', async () => {
    const { page } = h;
    const code = layla.rewards.availableProduct;
    await redeemUnder({ phone: layla.phone, code }, 'POS-503-1', { commitThenErrorRate: 1 });
    await expect
      .poll(() => page.getByTestId('queued').textContent())
      .toMatch(new RegExp(`^Not confirmed yet: .+${code} for `));
    expect(await page.getByTestId('answer-lost').textContent()).toContain('may already have redeemed this reward');
    h.sandbox.faults.reset();
    expect(redemptionsOf(code)).toHaveLength(1);
    await h.screenshot('63-redeem-answer-lost');

    // No second redeem is offered: the same code checked again waits in this till's outbox.
    await page.getByTestId('next-customer').click();
    await openOutbox(page);
    await page.getByTestId('retry-now').click();
    await expect.poll(() => count(page, 'pending')).toBe(0);
    expect(await count(page, 'conflict')).toBe(0);
    expect(await page.locator(`[data-testid="outbox-done"] [data-code="${code}"]`).textContent()).toContain(
      'most likely this till’s',
    );
    expect(redemptionsOf(code)).toEqual([expect.objectContaining({ order_reference: 'POS-503-1' })]);
  });

  it('a 200 whose body cannot be read: "Redeemed", the cache and the journal say so; redeemed once', async () => {
    const { page } = h;
    const code = omar.reward;
    await redeemUnder({ phone: omar.phone, code }, 'POS-GARBLED-1', { commitThenGarbleRate: 1 });
    await expect.poll(() => page.getByTestId('redeemed').textContent()).toContain('Redeemed');
    expect(await page.getByTestId('redeemed-unread').textContent()).toContain('could not be read');
    h.sandbox.faults.reset();
    await h.screenshot('64-redeemed-answer-unread');
    expect(redemptionsOf(code)).toEqual([expect.objectContaining({ order_reference: 'POS-GARBLED-1' })]);

    // Checked again, the service says it is redeemed; nothing offers to redeem it twice.
    await page.getByTestId('next-customer').click();
    await cashier.checkCode(page, code, omar.phone);
    await expect
      .poll(() => page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent())
      .not.toBe('Available');
    expect(await page.getByTestId('redeem-confirm').count()).toBe(0);

    await openOutbox(page);
    expect(await page.locator(`[data-testid="outbox-done"] [data-code="${code}"]`).textContent()).toContain(
      'could not be read in full',
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-journal').click()]);
    const lines = (await readFile(await download.path(), 'utf8')).trim().split('\r\n');
    expect(lines.find((line) => line.includes(code))).toMatch(/POS-GARBLED-1,.*redeemed: Confirmed by the loyalty/);
    expect(lines.find((line) => line.includes(layla.rewards.availableProduct))).toContain('most likely this till’s');
    await h.settled();
    expect(redemptionsOf(code)).toHaveLength(1);
    expect(redemptionsOf(layla.rewards.availableProduct)).toHaveLength(1);
  });
});
