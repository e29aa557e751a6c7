/**
 * What a cashier does, as the end-to-end tests drive it: the keys and fields of the real
 * screens, each step waiting for the screen's own answer rather than for time to pass.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** F2, the text, Enter; resolves once the answer to this search (not the last one) is shown. */
export async function search(page: Page, text: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.locator('#search').fill(text);
  await page.locator('#search').press('Enter');
  const answered = `[data-query="${text.trim().replace(/"/g, '\\"')}"]`;
  await page
    .locator(`[data-testid="results-summary"]${answered}, [data-testid="no-results"]${answered}, .notice--error`)
    .first()
    .waitFor();
}

export const resultNames = (page: Page) => page.locator('.result__name').allTextContents();

/** Finds the customer by phone, expects exactly them, and opens them. */
export async function openCustomer(page: Page, phone: string, name: string): Promise<void> {
  await search(page, phone);
  await expect.poll(() => resultNames(page)).toEqual([name]);
  await page.locator('#search').press('Enter');
  await expect.poll(() => page.getByTestId('customer-name').textContent()).toBe(name);
}

/** F3 with no customer on screen: code and phone typed, then Enter; resolves on the answer. */
export async function checkCode(page: Page, code: string, phone: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.press('F3');
  await page.locator('#reward-code').fill(code);
  await page.locator('#reward-phone').fill(phone);
  await page.locator('#reward-phone').press('Enter');
  await page.locator('[data-testid="reward-result"], .notice--error, [data-testid="offline-check"]').first().waitFor();
}

/**
 * On a checked reward the service says is available: the order reference, then "Order paid —
 * redeem". `beforeConfirm` runs just before the click (a fault switched on at the service, say).
 */
export async function confirmRedeem(
  page: Page,
  orderReference: string,
  beforeConfirm: () => void = () => undefined,
): Promise<void> {
  await expect
    .poll(() => page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent())
    .toBe('Available');
  await page.locator('#order-reference').fill(orderReference);
  beforeConfirm();
  await page.getByTestId('redeem-confirm').click();
}

export async function openOutbox(page: Page): Promise<void> {
  await page.keyboard.press('F8');
  await page.getByTestId('outbox-counts').waitFor();
}

/** One of the Outbox screen's counts. */
export const outboxCount = (page: Page, which: 'pending' | 'conflict' | 'failed' | 'done') =>
  page.getByTestId(`count-${which}`).textContent().then(Number);

/** What the cashier is told on redeeming while the service is out of reach, with the shop's other tills asked. */
export type ShopOutcome = { queued: string } | { refused: string } | { claimedAtCheck: string } | { asked: string };

const REWARD_STATE = '[data-testid="reward-result"] [data-testid="reward-state"]';

/**
 * Checks `code` against the cache (the shop is asked too) and presses "Order paid — redeem";
 * what the cashier is told: the check itself may say another till redeemed it (no redeem is
 * offered), or the cashier may be asked first because a till of the shop is out of reach.
 */
export async function redeemOffline(
  page: Page,
  code: string,
  phone: string,
  orderReference: string,
): Promise<ShopOutcome> {
  await checkCode(page, code, phone);
  await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
  const state = (await page.locator(REWARD_STATE).textContent()) ?? '';
  if (state.startsWith('Redeemed at ')) {
    expect(await page.getByTestId('redeem-confirm').count()).toBe(0);
    return { claimedAtCheck: state };
  }
  await page.locator('#order-reference').fill(orderReference);
  await page.getByTestId('redeem-confirm').click();
  return toldAfterRedeem(page);
}

/** What the cashier is told once "Order paid — redeem" (or F5, "Redeem anyway") was pressed. */
export async function toldAfterRedeem(page: Page): Promise<ShopOutcome> {
  const told = page
    .locator('[data-testid="queued"], [data-testid="redeem-refused"], [data-testid="shop-split-question"]')
    .first();
  await told.waitFor();
  const text = (await told.textContent()) ?? '';
  const kind = await told.getAttribute('data-testid');
  return kind === 'queued' ? { queued: text } : kind === 'redeem-refused' ? { refused: text } : { asked: text };
}
